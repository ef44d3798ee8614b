"""What generation costs, with and without the KV cache.

A model writes one token at a time. For every new token each layer needs
the keys and values of all the tokens before it. Without a cache it
recomputes them from scratch at every step; with the cache it keeps them in
memory and computes only the new token's pair. Counts here are per head and
per layer: multiply by heads and layers for the whole model.
"""


def kv_vectors(prompt, new, cache=True):
    """Quante coppie chiave/valore si calcolano per scrivere `new` token dopo il prompt, con e senza cache.

    Key/value pairs computed to write `new` tokens after a prompt of
    `prompt` tokens. With the cache: the prompt once, then one per new token
    (prompt + new). Without: step t recomputes all prompt + t tokens,
    Σₜ (prompt + t) = new·prompt + new(new + 1)/2.
    """
    if cache:
        return prompt + new
    return new * prompt + new * (new + 1) // 2


def kv_cache_bytes(layers, kv_heads, d_head, tokens, bytes_per_number):
    """La memoria della cache KV: chiave e valore per ogni testa, ogni strato e ogni token tenuto.

    Memory of the cache: a key and a value (2) of d_head numbers, for
    every key/value head of every layer, for every token kept.
    """
    return 2 * layers * kv_heads * d_head * tokens * bytes_per_number

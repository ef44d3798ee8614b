"""How big a decoder-only transformer is, and what it costs to keep and train.

A Llama-like model is an embedding table, a stack of identical blocks
(attention, MLP, two norms) and an output head. Counting its parameters is
counting the numbers in those matrices: the total follows from a handful of
sizes. From the count follow the bytes it takes (per precision), the memory
to train it, and the arithmetic of a training run (6 operations per
parameter per token).
"""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Decoder:
    """Le misure che fissano quanti parametri ha un decoder.

    vocab tokens, vectors of d numbers, layers blocks, an MLP that widens to
    d_ff. heads query heads; kv_heads heads for keys and values (None: as
    many as the queries; fewer is grouped-query attention). mlp "swiglu" has
    three matrices (gate, up, down), "gelu" two. norm "rmsnorm" has a gain
    per number, "layernorm" a gain and a bias. bias: the linear layers have
    biases (GPT-2). context > 0: a learned table of positions (GPT-2); 0 when
    positions are rotations with no weights (RoPE, Llama). tied: the output
    head is the embedding table itself.
    """

    vocab: int
    d: int
    layers: int
    d_ff: int
    heads: int = 1
    kv_heads: int | None = None
    tied: bool = False
    mlp: str = "swiglu"
    norm: str = "rmsnorm"
    bias: bool = False
    context: int = 0


LLAMA2_7B = Decoder(vocab=32_000, d=4096, layers=32, d_ff=11_008, heads=32)
LLAMA2_13B = Decoder(vocab=32_000, d=5120, layers=40, d_ff=13_824, heads=40)
LLAMA3_8B = Decoder(vocab=128_256, d=4096, layers=32, d_ff=14_336, heads=32, kv_heads=8)
GPT2_SMALL = Decoder(
    vocab=50_257,
    d=768,
    layers=12,
    d_ff=3072,
    heads=12,
    tied=True,
    mlp="gelu",
    norm="layernorm",
    bias=True,
    context=1024,
)


def kv_width(m):
    """Quanti numeri ha un vettore chiave (o valore): d, o meno se gruppi di teste lo condividono.

    Numbers in one key (or value) vector: d when every head has its own,
    less when groups of query heads share one (grouped-query attention).
    """
    kv = m.heads if m.kv_heads is None else m.kv_heads
    return m.d * kv // m.heads


def attention_params(m):
    """I parametri dell'attention di un blocco: W_q, W_k, W_v, W_o (4d² se non ci sono gruppi).

    One block's attention: W_q and W_o are d × d, W_k and W_v d × kv_width
    (4d² without grouping), plus a bias per output number if there are biases.
    """
    kv = kv_width(m)
    weights = 2 * m.d * m.d + 2 * m.d * kv
    return weights + (2 * m.d + 2 * kv if m.bias else 0)


def mlp_params(m):
    """I parametri dell'MLP di un blocco: 3·d·d_ff con SwiGLU, 2·d·d_ff nell'MLP classico.

    One block's MLP: d → d_ff → d. SwiGLU has two widening matrices (one
    gates the other) and one narrowing: 3·d·d_ff; the classic MLP 2·d·d_ff.
    """
    widening = 2 if m.mlp == "swiglu" else 1
    weights = (widening + 1) * m.d * m.d_ff
    return weights + (widening * m.d_ff + m.d if m.bias else 0)


def norm_params(m):
    """I parametri di una normalizzazione: d per RMSNorm, 2d per LayerNorm.

    One norm: RMSNorm scales each of the d numbers (d weights); LayerNorm
    also shifts them (2d).
    """
    return 2 * m.d if m.norm == "layernorm" else m.d


def parameter_counts(m):
    """Dove stanno i parametri: ogni parte sommata su tutti i blocchi, e il totale.

    Every block has two norms (before attention, before the MLP) and one more
    comes after the last block. An untied head is a second vocab × d matrix.
    """
    counts = {
        "embedding": m.vocab * m.d,
        "positions": m.context * m.d,
        "attention": m.layers * attention_params(m),
        "mlp": m.layers * mlp_params(m),
        "norms": (2 * m.layers + 1) * norm_params(m),
        "head": 0 if m.tied else m.vocab * m.d,
    }
    counts["total"] = sum(counts.values())
    counts["per_block"] = attention_params(m) + mlp_params(m) + 2 * norm_params(m)
    return counts


def mlp_share(m):
    """La quota dell'MLP tra le matrici di un blocco: circa due terzi, sia classico sia SwiGLU.

    The MLP's share of a block's matrices: 3·d·d_ff / (4d² + 3·d·d_ff).
    Two thirds in the classic block (8d² against 4d²), and still about two
    thirds with SwiGLU at d_ff ≈ 8/3·d, which is why that ratio is chosen.
    """
    return mlp_params(m) / (attention_params(m) + mlp_params(m))


# Bytes per number: fp32 is the full float, bf16 keeps its range with fewer
# digits, int8 and int4 are quantised (int4 packs two numbers in a byte).
BYTES = {"fp32": 4, "bf16": 2, "int8": 1, "int4": 0.5}

# What mixed-precision training with Adam keeps for every parameter, in bytes:
# the weights the forward pass uses, their gradients, a full-precision master
# copy that receives the small updates (in 16 bits they would round away), and
# Adam's two running averages (of the gradient and of its square).
TRAINING_BYTES = {"weights": 2, "grads": 2, "master": 4, "adam_m": 4, "adam_v": 4}


def weight_bytes(n, precision):
    """I byte di n numeri salvati alla precisione data (una chiave di BYTES)."""
    return n * BYTES[precision]


def training_bytes(n):
    """I byte dello stato di training di n parametri, parte per parte (16 per parametro in tutto).

    Bytes of the training state of n parameters, part by part, and their
    total (16 per parameter), activations not included.
    """
    parts = {name: n * b for name, b in TRAINING_BYTES.items()}
    parts["total"] = sum(parts.values())
    return parts


def training_flops(n, tokens):
    """Le operazioni di un training: 6·N·D (2 nel forward e 4 nel backward, per parametro e per token).

    Operations of a training run: 6·N·D. Per parameter and token the
    forward pass does a multiply and an add (2), the backward pass twice
    that (4): one gradient for the activations, one for the weights.
    """
    return 6 * n * tokens


def chinchilla_tokens(n):
    """Circa 20 token per parametro: la quantità di dati ottimale secondo Chinchilla (2022).

    About 20 tokens per parameter: the compute-optimal amount of data
    found by the Chinchilla study (2022).
    """
    return 20 * n


def chinchilla_optimum(flops):
    """Gli N e D che spendono flops = 6·N·D con D = 20·N: la regola di Chinchilla per un budget.

    The N and D that spend flops = 6·N·D with D = 20·N: N = √(flops / 120).
    For a given budget, the model size and data the Chinchilla rule picks.
    """
    n = math.sqrt(flops / 120)
    return n, chinchilla_tokens(n)


def gpu_hours(flops, peak_flops, utilisation):
    """Le ore di una GPU da peak_flops operazioni al secondo, di cui si usa solo una frazione.

    Hours of one GPU that does peak_flops operations per second but keeps
    only a fraction (utilisation) of that on a real run.
    """
    return flops / (peak_flops * utilisation) / 3600


def gpus_needed(total_bytes, gpu_bytes):
    """Quante GPU da gpu_bytes servono per tenere total_bytes (almeno una)."""
    return max(1, math.ceil(total_bytes / gpu_bytes - 1e-9))


def lora_params(rows, cols, r):
    """I numeri da allenare con LoRA su una matrice `rows` × `cols`: r·(`rows` + `cols`).

    LoRA replaces the update of a rows × cols matrix with B·A, B rows × r
    and A r × cols: r·(rows + cols) numbers to train, 2·d·r for a square d × d.
    """
    return r * (rows + cols)

"""Il testo di partenza di 3.2 (labs/ch3/transformer_allenato.py) e le regole del suo allenamento: quanti
passi, finestre e batch, ogni quanto si misura la loss e si genera il testo, i limiti del testo del lettore;
e le matrici e le parti del modello che la pagina mostra."""

CORPUS = """la mamma nuota al mare .
la nonna cena al ristorante .
la mamma gioca al parco .
la nonna mangia in cucina .
il nonno gioca al parco .
il papà legge in biblioteca .
il nonno balla in salotto .
la nonna pesca al lago .
il bambino legge in biblioteca .
il papà balla in salotto .
il papà mangia in cucina .
la mamma pesca al lago .
la mamma dorme in camera .
la bambina balla in salotto .
la nonna legge in biblioteca .
il papà pesca al lago .
il papà gioca al parco .
la nonna nuota al mare .
il bambino gioca al parco .
il bambino mangia in cucina .
il bambino nuota al mare .
il bambino pesca al lago .
la bambina gioca al parco .
il papà dorme in camera .
la nonna balla in salotto .
il nonno legge in biblioteca .
il bambino balla in salotto .
la mamma legge in biblioteca .
la bambina mangia in cucina .
il bambino cena al ristorante .
la mamma cena al ristorante .
la mamma mangia in cucina .
il nonno dorme in camera .
la bambina legge in biblioteca .
il papà cena al ristorante .
il nonno mangia in cucina .
la mamma balla in salotto .
il nonno pesca al lago .
la nonna gioca al parco .
la bambina dorme in camera .
la mamma mangia in cucina .
la bambina dorme in camera .
la mamma balla in salotto .
il papà legge in biblioteca .
la mamma nuota al mare .
il papà pesca al lago .
la nonna cena al ristorante .
la nonna gioca al parco ."""
# each word's role in the default text: a colour on the plane of the embeddings
ROLES = {
    **dict.fromkeys(("nonno", "nonna", "bambino", "bambina", "papà", "mamma"), "a"),
    **dict.fromkeys(("dorme", "mangia", "balla", "legge", "nuota", "gioca", "pesca", "cena"), "b"),
    **dict.fromkeys(("camera", "cucina", "salotto", "biblioteca", "mare", "parco", "lago", "ristorante"), "c"),
    **dict.fromkeys(("il", "la", "in", "al"), "d"),
}

STEPS = 1000
CONTEXT, BATCH = 8, 4  # 4 windows a step: a step stays within the browser's budget for «Avanti»
WARMUP, FLOOR = 20, 0.1  # Adam's learning rate: up in 20 steps, then a cosine down to 10 % of the peak
HELD_OUT = 6  # the last sixth of the text is never trained on
EVAL_EVERY = 20  # the loss on the whole text, every 20 steps (a forward over it costs about three training steps)
EVAL_WINDOWS = (32, 16)  # at most this many windows of the training text and of the held-out text
SAMPLE_EVERY = 50  # text generated from the prompt, every 50 steps
GENERATED = {"parole": 20, "caratteri": 40}
BIGRAM_ETA = 2.0  # the bigram's SGD, as in 3.1
MAX_CHARS = 2000
MIN_TOKENS = HELD_OUT * (CONTEXT + 1)  # so that the held-out sixth fills at least one window
MAX_VOCAB = {"parole": 40, "caratteri": 50}
UNITS = {"parole": ("parola", "parole"), "caratteri": ("carattere", "caratteri")}

BLOCK_MATRICES = (
    ("W_q", "W_q, le query"),
    ("W_k", "W_k, le chiavi"),
    ("W_v", "W_v, i valori"),
    ("W_o", "W_o, l'uscita dell'attention"),
    ("W_1", "W₁, l'MLP che allarga"),
    ("W_2", "W₂, l'MLP che restringe"),
)
MATRICES = (
    ("tok_emb", "E, gli embedding dei token"),
    ("pos_emb", "P, le posizioni"),
    *((f"block{b}.{name}", f"Blocco {b + 1} · {label}") for b in range(2) for name, label in BLOCK_MATRICES),
)
PARTS = (
    ("token_embedding", "Embedding dei token"),
    ("position_embedding", "Posizioni"),
    ("attention", "Attention"),
    ("feed_forward", "MLP"),
    ("norms", "Normalizzazioni"),
    ("head", "Testa di uscita"),
)

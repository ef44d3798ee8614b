"""I pesi di 1.4 (labs/ch1/transformer_miniatura.py), scritti a mano: le otto dimensioni con un nome, la
tabella E degli embedding, la matrice W_q e le sette regole dell'MLP; e quanto può essere lunga una frase."""

# ---------------------------------------------------------------- the weights, written by hand
#
# How they were chosen. The guide's figures fix «sul» and the attention of
# «sul»: after the average, preposizione = 0.65 = (weight of «sul») × 1 and
# luogo = 0.39 = 0.65 × 0.6, so «sul» is [dormire 0.3, luogo 0.6,
# preposizione 1]; dormire 0.48 = 0.28 × 1 («dorme») + 0.65 × 0.3. Weights
# 2 % / 28 % / 65 % need scores 0 for il, gatto, nero (the query of «sul» has
# nothing they have), about 2.5 for «dorme» (ln 0.28/0.02 ≈ 2.6) and 0.83
# more for «sul» (ln 0.65/0.28); only a narrow band of pairs rounds to all six
# figures at once. With W_q = 3 on the diagonal («every token looks for its
# own features»),
# the row «preposizione» [dormire 1.6, preposizione 1.5] gives the query of
# «sul» [dormire 2.5, luogo 1.8, preposizione 1.5]: scores 0, 0, 0, 2.5,
# 3.33, hence 2.3 %, 2.3 %, 2.3 %, 28.3 %, 64.8 %. The MLP rules were then
# tuned so that every position of the sample sentences predicts a word that
# makes sense, and «divano» beats «letto» beats «tappeto» after «dorme sul».
#
# The verb decides the place. The same row «preposizione» also looks for
# «mangiare» (2.5, as much as for «dormire»): no token of the guide's sentence
# has it, so its figures do not move, but after «mangia sul» the verb gets
# the same 28 %. Rule 7 («se mangiare, senza animale») then takes «dormire»
# away, and since divano − tappeto = 0.8 × dormire in the final scores,
# «tappeto» goes on top. Rule 6 is kept off at a preposition, so it does not
# push an article there.

DIMS = ("animale", "dormire", "mangiare", "luogo", "preposizione", "fine", "articolo", "cibo")
VOCAB = (".", "il", "gatto", "cane", "nero", "dorme", "mangia", "sul", "divano", "letto", "pesce", "tappeto")
END = 0  # «.» ends the sentence: its only feature is «fine»

FEATURES = {  # the row of E of each token; the dimensions not listed are 0
    ".": {"fine": 1},
    "il": {"articolo": 1},
    "gatto": {"animale": 1},
    "cane": {"animale": 1},  # the same vector as «gatto»: for this model they are the same thing
    "nero": {"animale": 0.5},  # no colour among the 8 names: it only says «goes with an animal»
    "dorme": {"dormire": 1},
    "mangia": {"mangiare": 1},
    "sul": {"dormire": 0.3, "luogo": 0.6, "preposizione": 1},
    "divano": {"luogo": 1, "dormire": 0.8},
    "letto": {"luogo": 0.9, "dormire": 1},
    "pesce": {"cibo": 1, "animale": 0.5},
    "tappeto": {"luogo": 1},
}
SELF = 3  # the diagonal of W_q: a token looks first of all for what it has itself
LOOKS_FOR = {  # rows of W_q that differ from the diagonal: feature of the token → {feature looked for: weight}
    "preposizione": {"dormire": 1.6, "preposizione": 1.5, "mangiare": 2.5},  # a preposition looks back for the verb
    "articolo": {"articolo": SELF, "mangiare": 4},  # an article after «mangia» introduces what is eaten
}
RULES = (  # the 7 neurons of the MLP: (rule, gate weights, what it adds when fully on)
    ("se articolo, senza mangiare", {"articolo": 1, "mangiare": -2}, {"animale": 3, "articolo": -1}),
    (
        "se animale, senza verbo né cibo",
        {"animale": 1, "dormire": -2, "mangiare": -2, "cibo": -2},
        {"dormire": 3, "mangiare": 3, "animale": -1, "luogo": -3},
    ),  # a verb, not a bed (which has «dormire» too)
    (
        "se dormire, senza preposizione né luogo",
        {"dormire": 1, "preposizione": -2, "luogo": -2},
        {"preposizione": 3, "dormire": -1},
    ),
    ("se preposizione, senza luogo", {"preposizione": 2, "luogo": -1}, {"luogo": 3, "preposizione": -1}),
    (
        "se luogo o cibo, senza preposizione",
        {"luogo": 1, "cibo": 1, "preposizione": -2},
        {"fine": 3, "luogo": -1, "cibo": -1},
    ),
    (
        "se mangiare, senza articolo né preposizione",
        {"mangiare": 1, "articolo": -2, "preposizione": -2},
        {"articolo": 3, "mangiare": -1, "cibo": -3},
    ),  # right after «mangia» the article comes before the food
    ("se mangiare, senza animale", {"mangiare": 1, "animale": -2}, {"cibo": 3, "dormire": -3}),  # eat, not sleep
)


def row(features):
    return [float(features.get(d, 0)) for d in DIMS]


E = [row(FEATURES[t]) for t in VOCAB]  # 12 × 8
W_Q = [row(LOOKS_FOR.get(d, {d: SELF})) for d in DIMS]  # 8 × 8: row = feature of the token, column = looked for
W1 = [[float(gate.get(d, 0)) for _, gate, _ in RULES] for d in DIMS]  # 8 × 7: column k = the gate of rule k
W2 = [row(adds) for _, _, adds in RULES]  # 7 × 8: row k = what rule k adds

# how long a sentence may be: the words the reader writes and the tokens the model adds
MAX_WORDS, MAX_NEW = 12, 8

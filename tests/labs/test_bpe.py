"""9A Il tokenizer BPE: the real algorithm, checked against a brute-force
count that shares no code with core.bpe's counting and merging."""

import html
import json
import random
import re
from collections import Counter

import pytest

import labs
from core import bpe
from labs.ch9 import bpe as MOD
from labs.ch9.bpe import CORPUS, MAX_MERGES, NEW_TEXT

LAB = labs.get("bpe")
XSS = "<script>alert(1)</script><img src=x onerror=alert(1)>"


def state(**changes):
    return LAB.compute(LAB.parse({k: str(v) for k, v in changes.items()}))


def brute_force_merges(text, steps):
    """Every chunk occurrence as a list of byte strings; count adjacent pairs
    over all occurrences, check the lab's choice is a most frequent pair,
    glue it everywhere, repeat. Returns the (left, right, count) chosen."""
    chunks = [[bytes([b]) for b in c.encode("utf-8")] for c in bpe.pretokenize(text)]
    vocab = bpe.build_vocab([])
    chosen = []
    for m in steps:
        counts = Counter(p for c in chunks for p in zip(c, c[1:]))
        left, right = vocab[m["left"][0]], vocab[m["right"][0]]
        assert counts[(left, right)] == max(counts.values()) == m["count"]
        chosen.append((left, right, m["count"]))
        vocab[m["new"][0]] = left + right
        glued = []
        for c in chunks:
            out, i = [], 0
            while i < len(c):
                if i + 1 < len(c) and (c[i], c[i + 1]) == (left, right):
                    out.append(left + right)
                    i += 2
                else:
                    out.append(c[i])
                    i += 1
            glued.append(out)
        chunks = glued
    return chosen, chunks


@pytest.mark.parametrize("k", [0, 1, 5, 30, MAX_MERGES])
def test_after_k_steps_there_are_k_merges_and_256_plus_k_tokens(k):
    s = state(passo=k)
    assert s["done"] == len(s["merges"]) == k
    assert s["vocab_size"] == 256 + k
    assert [m["new"][0] for m in s["merges"]] == list(range(256, 256 + k))
    assert not s["exhausted"] and not s["empty"]


def test_default_merges_are_the_most_frequent_pairs_by_brute_force():
    s = state(passo=MAX_MERGES)
    chosen, chunks = brute_force_merges(CORPUS, s["merges"])
    texts = [(a + b).decode("utf-8", "replace") for a, b, _ in chosen]
    assert texts[:5] == ["la", "on", " d", "tt", "one"]
    assert [c for _, _, c in chosen[:5]] == [21, 21, 16, 16, 16]
    # the pieces the guide names appear as single tokens
    for piece in (" della", "zione", " gatt", " città", " è", "à"):
        assert piece in texts
    # the corpus length in tokens agrees with the brute force too
    assert s["tokens_now"] == sum(len(c) for c in chunks)
    assert s["tokens_start"] == len(CORPUS.encode("utf-8")) == 628


@pytest.mark.parametrize("k", [0, 3, 12])
def test_pair_table_counts_match_brute_force(k):
    s = state(passo=k)
    _, chunks = brute_force_merges(CORPUS, s["merges"][: max(0, k - 1)])
    counts = Counter(p for c in chunks for p in zip(c, c[1:]))
    top = sorted(counts.values(), reverse=True)[: len(s["pairs"])]
    assert [q["count"] for q in s["pairs"]] == top
    assert s["pairs"][0]["winner"] and sum(q["winner"] for q in s["pairs"]) == 1


def test_corpus_shrinks_as_merges_are_learned():
    sizes = [state(passo=k)["tokens_now"] for k in (0, 10, 40, 80)]
    assert sizes[0] == 628 and sizes == sorted(sizes, reverse=True) and sizes[-1] < 0.4 * sizes[0]


@pytest.mark.parametrize("k", [0, 7, MAX_MERGES])
def test_new_text_is_encoded_with_the_learned_merges_in_order(k):
    text = "Il gattone della stazione guarda 🐈 l'emozione, perché no? 123"
    s = state(passo=k, nuovo=text)
    merges = bpe.train(CORPUS, k)
    assert s["new_ids"] == bpe.encode(text, merges)
    assert bpe.decode(s["new_ids"], bpe.build_vocab(merges)) == text
    shown = [t[0] for line in s["new_lines"] for chunk in line for t in chunk]
    assert shown == s["new_ids"]


def test_zero_merges_shows_raw_bytes_and_emoji_bytes_stay_until_merged():
    s = state(passo=0)
    assert s["new_ids"] == list(NEW_TEXT.encode("utf-8"))
    s = state(passo=MAX_MERGES)
    texts = [t[1] for line in s["new_lines"] for chunk in line for t in chunk]
    assert ["⟨F0⟩", "⟨9F⟩", "⟨90⟩", "⟨88⟩"] == [t for t in texts if t.startswith("⟨")]


def test_an_unseen_word_falls_apart_and_the_view_says_so():
    s = state(passo=MAX_MERGES)
    assert [[t[1] for t in c] for c in s["unseen"]] == [["·gatt", "one"]]
    view = str(LAB.view(s))
    assert "non compaiono mai" in view and "«·gatt» + «one»" in view


def test_merge_list_jumps_to_its_step_and_nothing_looks_like_a_step_button():
    view = str(LAB.view(state(passo=3)))
    assert 'data-set="passo=1"' in view and 'data-set="passo=3"' in view
    assert "data-step=" not in view  # the runtime treats [data-step] as the Avanti/Indietro buttons


def test_chunk_boundaries_are_visible_in_the_view():
    view = str(LAB.view(state(passo=20)))
    first_line = CORPUS.split("\n")[0]
    assert view.count('class="lab-bpe-chunk"') >= len(bpe.pretokenize(first_line))
    assert "pre-tokenizzazione" in view


@pytest.mark.parametrize("field", ["corpus", "nuovo"])
def test_typed_text_is_escaped(field):
    s = state(passo=5, **{field: XSS + " gatto"})
    view = str(LAB.view(s))
    assert "<script" not in view and "<img" not in view
    assert html.escape("<") in view


def test_empty_corpus_gives_an_italian_message():
    s = state(corpus="", passo=10)
    assert s["empty"] and s["done"] == 0 and s["vocab_size"] == 256
    view = str(LAB.view(s))
    assert "Il corpus è vuoto" in view
    assert s["new_ids"] == list(NEW_TEXT.encode("utf-8"))


def test_a_corpus_with_no_pairs_left_stops_with_a_message():
    s = state(corpus="x.x.x.x", passo=5)
    assert s["exhausted"] and s["done"] == 0
    s = state(corpus="x" * 3000, passo=MAX_MERGES)
    assert s["exhausted"] and 0 < s["done"] < MAX_MERGES and s["tokens_now"] == 1
    assert "Non resta nessuna coppia" in str(LAB.view(s))


def heavy_corpora():
    rng = random.Random(9)
    words = CORPUS.split()
    return {
        "italiano": " ".join(rng.choice(words) for _ in range(1000))[:3000],
        "lettere a caso": "".join(rng.choice("abcdefghilmnoprstuvzàè ") for _ in range(3000)),
        "cinese": "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(3000)),
        "qualsiasi Unicode": "".join(chr(rng.randint(0x20, 0xD7FF)) for _ in range(3000)),
    }


@pytest.mark.parametrize("name", list(heavy_corpora()))
def test_heaviest_settings_render(name):
    """Worst cases for the trainer (timings: scripts/bench.py in the browser, scripts/bench_bpe.py for
    core.bpe alone; not asserted here)."""
    corpus = heavy_corpora()[name]
    params = LAB.parse({"corpus": corpus, "passo": str(MAX_MERGES), "nuovo": "🐈 gattone " * 30})
    html = str(LAB.view(LAB.compute(params)))
    assert "lab-bpe" in html


# The lab before it became a step machine, frozen: every step replayed from zero. The machine must
# give the same state at every step (it may add keys, such as the curve of the timeline).


def old_first_lines(chunks, tokens_of, lines=4, limit=300):
    out, shown = [[]], 0
    for chunk, ids in chunks:
        if shown >= limit or len(out) > lines:
            break
        out[-1].append([tokens_of(i) for i in ids[: limit - shown]])
        shown += len(out[-1][-1])
        if "\n" in chunk:
            out.append([])
    return [line for line in out if line]


def old_compute(p):
    corpus, k = p["corpus"], p["passo"]
    trainer = bpe.Trainer(corpus)
    for _ in range(k - 1):
        trainer.step()
    top = bpe.ranked_pairs(trainer.counts, 10)
    winner = trainer.next_pair()
    if k:
        trainer.step()
    merges, seqs, weights = trainer.merges, trainer.seqs, trainer.weights
    row_of = {chunk: i for i, chunk in enumerate(trainer.chunks)}
    vocab = bpe.build_vocab(merges)
    tok = lambda i: [i, bpe.token_text(vocab[i])]  # noqa: E731
    corpus_chunks = ((c, seqs[row_of[c.encode()]]) for c in bpe.pretokenize(corpus))
    new_chunks = list(zip(bpe.pretokenize(p["nuovo"]), bpe.encode_chunks(p["nuovo"], merges)))
    unseen = [
        [tok(i) for i in ids]
        for chunk, ids in new_chunks
        if any(c.isalpha() for c in chunk) and chunk.encode() not in row_of
    ]
    return {
        "step": k,
        "done": len(merges),
        "empty": not corpus.strip(),
        "exhausted": bool(corpus) and (len(merges) < k or not top),
        "merges": [{"left": tok(m.left), "right": tok(m.right), "new": tok(m.id), "count": m.count} for m in merges],
        "pairs": [{"left": tok(a), "right": tok(b), "count": c, "winner": (a, b) == winner} for (a, b), c in top],
        "vocab_size": bpe.BASE_VOCAB + len(merges),
        "tokens_start": sum(len(c) * w for c, w in zip(trainer.chunks, weights)),
        "tokens_now": sum(len(s) * w for s, w in zip(seqs, weights)),
        "chunks": sum(weights),
        "distinct_chunks": len(trainer.chunks),
        "corpus_lines": old_first_lines(corpus_chunks, tok),
        "new_lines": old_first_lines(new_chunks, tok, lines=len(new_chunks)),
        "new_ids": [i for _, ids in new_chunks for i in ids],
        "unseen": unseen[:6],
    }


def sample_corpora():
    """The settings whose every step is compared with the frozen compute."""
    return {
        "predefinito": CORPUS,
        **heavy_corpora(),
        "vuoto": "",
        "spazi": "  \n\t ",
        "senza coppie": "x.x.x.x",
        "solo x": "x" * 3000,
        "ripetizioni": "aaaa bbbbbbb aaa ab ba " * 20 + "\n" * 7 + "zzz " * 50,
        "una riga lunga": " ".join(CORPUS.split()) * 3,
        "malevolo": XSS + " gatto " + CORPUS,
    }


@pytest.mark.parametrize("name", list(sample_corpora()))
def test_every_step_equals_the_frozen_compute(name):
    corpus = sample_corpora()[name]
    rng = random.Random(name)
    steps = (
        range(MAX_MERGES + 1)
        if name in ("predefinito", "ripetizioni")
        else sorted({0, 1, 2, MAX_MERGES, *rng.sample(range(MAX_MERGES + 1), 8)})
    )
    for nuovo in (NEW_TEXT, "Il gattone 🐈 e la gattona, 123!\nzzz aaaa"):
        for k in steps:
            p = LAB.parse({"corpus": corpus, "nuovo": nuovo, "passo": str(k)})
            old, new = old_compute(p), LAB.compute(p)
            assert {key: new[key] for key in old} == old, f"{name}, passo {k}"


def test_a_pasted_100_kb_corpus_is_taken_whole_and_its_steps_equal_the_frozen_compute():
    from bench_bpe import italian_like  # scripts/, on the path from conftest

    corpus = italian_like(MOD.MAX_CORPUS)
    assert MOD.MAX_CORPUS == 100_000 and LAB.parse({"corpus": corpus})["corpus"] == corpus
    for k in (0, 1, 2, MAX_MERGES):
        p = LAB.parse({"corpus": corpus, "passo": str(k)})
        old, new = old_compute(p), LAB.compute(p)
        assert {key: new[key] for key in old} == old, f"passo {k}"
    s = LAB.compute(LAB.parse({"corpus": corpus, "passo": str(MAX_MERGES)}))
    assert s["cut"] and "si ferma a 100.000 caratteri" in str(LAB.view(s))
    longer = LAB.parse({"corpus": corpus + "Il gatto."})["corpus"]
    assert longer == corpus  # the page cuts at the limit, and the view says so above
    assert not state()["cut"] and "si ferma a" not in str(LAB.view(state()))


def random_walk(rng, length):
    at = 0
    for _ in range(length):
        move = rng.random()
        at = (
            min(MAX_MERGES, at + 1)
            if move < 0.55
            else max(0, at - 1)
            if move < 0.7
            else min(MAX_MERGES, at + 10)
            if move < 0.8
            else rng.randint(0, MAX_MERGES)
        )
        yield at


@pytest.mark.parametrize("name", ["predefinito", "lettere a caso", "solo x", "ripetizioni", "vuoto"])
def test_cached_steps_equal_the_replay_on_random_walks(name):
    """Avanti, Indietro, jumps and a new «nuovo» (which keeps the machine) give what replaying from zero gives."""
    rng = random.Random(f"walk {name}")
    corpus = sample_corpora()[name]
    MOD.compute.cache.clear()
    texts = [NEW_TEXT, "gattone 🐈 della città", ""]
    for at in random_walk(rng, 40):
        p = LAB.parse({"corpus": corpus, "nuovo": rng.choice(texts), "passo": str(at)})
        assert json.dumps(MOD.compute(p), sort_keys=True) == json.dumps(MOD.compute.replay(p), sort_keys=True), at
    assert len(MOD.compute.cache) == 1  # «nuovo» is only read by the view: one machine for the whole walk


def test_every_machine_shares_one_training():
    """A machine is its step and the training's Memo: the trainer, which only moves forward, is trained once
    for every checkpoint, and going back reads what it wrote then."""
    MOD.compute.cache.clear()
    MOD.compute(LAB.parse({"passo": str(MAX_MERGES)}))
    entry = next(iter(MOD.compute.cache.values()))
    machines = [*entry["checkpoints"].values(), entry["live"][1]]
    assert len(machines) > 10 and len({id(m["memo"]) for m in machines}) == 1
    trained = machines[0]["memo"].items["training"]
    assert len(trained.steps) == MAX_MERGES + 1 and state(passo=3)["step"] == 3


def test_the_curve_of_the_timeline_is_the_corpus_length_so_far():
    for k in (0, 1, 40, MAX_MERGES):
        s = state(passo=k)
        assert len(s["tokens_so_far"]) == k + 1 and s["tokens_so_far"][-1] == s["tokens_now"]
        assert s["tokens_so_far"][0] == 628 and s["tokens_so_far"] == sorted(s["tokens_so_far"], reverse=True)
    assert state(passo=7)["tokens_so_far"] == state(passo=MAX_MERGES)["tokens_so_far"][:8]


@pytest.mark.parametrize("k", [0, 1, MAX_MERGES])
def test_one_step_counter_the_timelines(k):
    result = labs.render("bpe", {"passo": str(k)})
    assert f"Fusione {k} di {MAX_MERGES}" in result["timeline"]
    assert "lab-step-counter" not in result["html"] and f"di {MAX_MERGES}" not in result["html"]


@pytest.mark.parametrize("k", [1, MOD.RECENT_MERGES, MOD.RECENT_MERGES + 1, MAX_MERGES])
def test_the_last_rules_are_shown_and_the_earlier_ones_folded(k):
    view = str(LAB.view(state(passo=k)))
    folded = max(0, k - MOD.RECENT_MERGES)
    rules = re.findall(r'data-set="passo=(\d+)"', view)
    assert [int(r) for r in rules] == list(range(1, k + 1))  # each rule once, in order
    if folded:
        inside = view[view.index("<details") : view.index("</details>")]
        assert re.findall(r'data-set="passo=(\d+)"', inside) == [str(n) for n in range(1, folded + 1)]
        summary = "La prima regola" if folded == 1 else f"Le prime {folded} regole"
        assert summary in inside and "lab-bpe-tok" not in inside  # compact: plain text
    else:
        assert "<details" not in view
    shown = view[view.index("</details>") if folded else 0 :]
    assert shown.count('role="button"') == k - folded and f'start="{folded + 1}"' in shown

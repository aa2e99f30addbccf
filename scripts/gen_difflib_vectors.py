#!/usr/bin/env python3
"""Generate the test vectors of sluice's difflib port (package score).

Run from the repository root:

    python3 scripts/gen_difflib_vectors.py

It writes two files, both deterministic (fixed random seed, sorted keys):

score/testdata/difflib/vectors.json
    Token-sequence pairs and, for each, the output of CPython's
    difflib.SequenceMatcher(None, a, b).get_matching_blocks() (autojunk on).
    Sequences are stored as space-joined strings of short tokens; blocks as a
    flat list [a0, b0, size0, a1, b1, size1, ...] including the final
    sentinel. The pairs mix small random vocabularies (many repeats and
    ties), lengths 0 to ~600 (so that the "popular element" rule for
    len(b) >= 200 is exercised, also right at its thresholds), identical
    sequences, empty sequences, heavy duplication and edited copies.

score/testdata/difflib/cleaneval_dev.json
    Only written when ../shared/data/cleaneval-dev exists (relative to the
    repository root). For each gold file: its name and the counts of the
    CleanEval (Evert) scoring of a deterministic perturbation of the gold
    text against the gold text, in the labelled, unlabelled and text-only
    modes: numbers and file names only, no gold text. The normalisation,
    tokenisation and perturbation below must stay identical to
    score/cleaneval.go and score/cleaneval_test.go (perturbGold).

Any Python 3 works (difflib's matching has not changed since Python 2.5);
the vectors were generated with CPython 3.11.
"""

import codecs
import difflib
import json
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "score", "testdata", "difflib")
DEV_DIR = os.path.join(ROOT, "..", "shared", "data", "cleaneval-dev")

SEED = 20080101
N_PAIRS = 1200

# Token names: short strings, so that the file stays small.
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def tok(n):
    """Token name for symbol n (base-62, 1 or 2 characters for n < 3844)."""
    s = ""
    while True:
        s = ALPHABET[n % 62] + s
        n //= 62
        if n == 0:
            return s


def pick_len(rng):
    r = rng.random()
    if r < 0.08:
        return rng.randint(0, 3)
    if r < 0.55:
        return rng.randint(0, 60)
    if r < 0.80:
        return rng.randint(60, 199)
    if r < 0.92:
        return rng.randint(195, 330)
    return rng.randint(330, 620)


def random_seq(rng, n, vocab, zipf=False):
    if vocab <= 0:
        vocab = 1
    if zipf:
        weights = [1.0 / (k + 1) ** 1.1 for k in range(vocab)]
        return [tok(x) for x in rng.choices(range(vocab), weights=weights, k=n)]
    return [tok(rng.randrange(vocab)) for _ in range(n)]


def mutate(rng, a, vocab, rate):
    """An edited copy of a: deletions, insertions, substitutions, moved chunks."""
    out = []
    for t in a:
        r = rng.random()
        if r < rate:  # delete
            continue
        if r < 2 * rate:  # substitute
            out.append(tok(rng.randrange(vocab)))
            continue
        if r < 3 * rate:  # insert before
            out.append(tok(rng.randrange(vocab)))
        out.append(t)
    if len(out) > 10 and rng.random() < 0.3:  # move a chunk
        i = rng.randrange(len(out))
        j = min(len(out), i + rng.randint(1, 20))
        chunk = out[i:j]
        del out[i:j]
        k = rng.randrange(len(out) + 1)
        out[k:k] = chunk
    return out


def make_pair(rng, idx):
    kind = idx % 10
    vocab = rng.choice([1, 2, 3, 4, 6, 10, 20, 40, 100, 300])
    if kind == 0:  # identical
        a = random_seq(rng, pick_len(rng), vocab, zipf=rng.random() < 0.5)
        return a, list(a)
    if kind == 1:  # one side empty (or both)
        a = random_seq(rng, pick_len(rng), vocab)
        r = rng.random()
        if r < 0.45:
            return a, []
        if r < 0.9:
            return [], a
        return [], []
    if kind == 2:  # heavy duplication
        v = rng.choice([1, 2, 3])
        return random_seq(rng, pick_len(rng), v), random_seq(rng, pick_len(rng), v)
    if kind == 3:  # around the popular threshold: len(b) in 195..205, 295..305
        n = rng.choice([rng.randint(195, 205), rng.randint(295, 305), 200, 300])
        ntest = n // 100 + 1
        # a few symbols with counts right at ntest, ntest+1, the rest rare
        b = []
        for s, c in enumerate([ntest, ntest + 1, ntest - 1, ntest + 2, ntest]):
            b += [tok(s)] * c
        while len(b) < n:
            b.append(tok(rng.randrange(5, 5 + rng.choice([20, 60, 200]))))
        b = b[:n]
        rng.shuffle(b)
        a = mutate(rng, b, 40, rng.choice([0.05, 0.2, 0.5]))
        return a, b
    if kind in (4, 5, 6):  # edited copies
        a = random_seq(rng, pick_len(rng), vocab, zipf=rng.random() < 0.5)
        b = mutate(rng, a, vocab, rng.choice([0.02, 0.1, 0.3]))
        if rng.random() < 0.5:
            a, b = b, a
        return a, b
    # independent sequences, zipfian or uniform
    zipf = rng.random() < 0.6
    return (random_seq(rng, pick_len(rng), vocab, zipf),
            random_seq(rng, pick_len(rng), vocab, zipf))


def gen_vectors():
    rng = random.Random(SEED)
    pairs = []
    for idx in range(N_PAIRS):
        a, b = make_pair(rng, idx)
        blocks = difflib.SequenceMatcher(None, a, b).get_matching_blocks()
        flat = []
        for m in blocks:
            flat += [m.a, m.b, m.size]
        pairs.append({"a": " ".join(a), "b": " ".join(b), "blocks": flat})
    return {
        "generator": "scripts/gen_difflib_vectors.py",
        "python": sys.version.split()[0],
        "seed": SEED,
        "pairs": pairs,
    }


# --- CleanEval (Evert) normalisation; must match score/cleaneval.go ---------


def _latin1_fallback(err):
    return err.object[err.start:err.end].decode("latin-1"), err.end


codecs.register_error("sluice-latin1", _latin1_fallback)


def read_gold(data):
    """score.ReadGold: BOM stripped, UTF-8 with each invalid byte read as
    ISO-8859-1, CRLF and CR to LF."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8", errors="sluice-latin1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


# Evert's regular expressions, over str instead of Python 2 bytes: \s of a
# Python 2 byte string is [ \t\n\r\f\v].
RE_URL = re.compile(r"^[ \t\n\r\f\v]*URL.*$", re.MULTILINE)
RE_CTRL = re.compile(r"[\x00-\x1f]+")
RE_TAG = re.compile(r"(<[phl]>)", re.IGNORECASE)


def ce_tokens(text, mode):
    text = RE_URL.sub("", text)
    text = RE_CTRL.sub(" ", text)
    text = RE_TAG.sub(r" \1 ", text)
    toks = [t for t in text.split(" ") if t]
    if mode == "unlabelled":
        toks = ["<p>" if RE_TAG.fullmatch(t) else t for t in toks]
    elif mode == "textonly":
        toks = [t for t in toks if not RE_TAG.fullmatch(t)]
    return toks


BOILER = ["Home", "|", "About", "us", "|", "Contact", "<l>", "Copyright", "(c)", "2007"]


def perturb(toks):
    """Deterministic fake cleaner output from gold tokens (labelled mode):
    every 37th position gets a growing prefix of BOILER inserted before it,
    every 113th repeats the 5 tokens before it, every 7th token is dropped."""
    out = []
    for i, t in enumerate(toks):
        if i % 37 == 0:
            out += BOILER[: 1 + (i // 37) % len(BOILER)]
        if i % 113 == 112:
            out += toks[max(0, i - 5):i]
        if i % 7 == 6:
            continue
        out.append(t)
    return " ".join(out)


def ce_counts(output, gold, mode):
    a = ce_tokens(output, mode)
    b = ce_tokens(gold, mode)
    tp = tag_tp = 0
    for m in difflib.SequenceMatcher(None, a, b).get_matching_blocks():
        tp += m.size
        tag_tp += sum(1 for t in a[m.a:m.a + m.size] if RE_TAG.fullmatch(t))
    a_tags = sum(1 for t in a if RE_TAG.fullmatch(t))
    b_tags = sum(1 for t in b if RE_TAG.fullmatch(t))
    return {
        "tp": tp, "fp": len(a) - tp, "fn": len(b) - tp,
        "tag_tp": tag_tp, "tag_fp": a_tags - tag_tp, "tag_fn": b_tags - tag_tp,
    }


def natural_key(name):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def gen_cleaneval_dev():
    gold_dir = os.path.join(DEV_DIR, "gold")
    if not os.path.isdir(gold_dir):
        return None
    files = []
    for name in sorted(os.listdir(gold_dir), key=natural_key):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(gold_dir, name), "rb") as fh:
            gold = read_gold(fh.read())
        output = perturb(ce_tokens(gold, "labelled"))
        files.append({
            "file": name,
            "labelled": ce_counts(output, gold, "labelled"),
            "unlabelled": ce_counts(output, gold, "unlabelled"),
            "textonly": ce_counts(output, gold, "textonly"),
        })
    return {
        "generator": "scripts/gen_difflib_vectors.py",
        "python": sys.version.split()[0],
        "files": files,
    }


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, separators=(",", ":"), sort_keys=True)
        fh.write("\n")
    print(f"wrote {os.path.relpath(path, ROOT)} ({os.path.getsize(path)} bytes)")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    write_json(os.path.join(OUT_DIR, "vectors.json"), gen_vectors())
    dev = gen_cleaneval_dev()
    if dev is None:
        print(f"{DEV_DIR} not found: cleaneval_dev.json left unchanged")
    else:
        write_json(os.path.join(OUT_DIR, "cleaneval_dev.json"), dev)


if __name__ == "__main__":
    main()

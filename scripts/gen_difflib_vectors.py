#!/usr/bin/env python3
"""Generate the test vectors of sluice's difflib port (package score).

Run from the repository root:

    python3 scripts/gen_difflib_vectors.py

It writes three files, all deterministic (fixed random seed, sorted keys):

score/testdata/difflib/vectors.json
    Token-sequence pairs and, for each, the output of CPython's
    difflib.SequenceMatcher(None, a, b).get_matching_blocks() (autojunk on).
    Sequences are stored as space-joined strings of short tokens; blocks as a
    flat list [a0, b0, size0, a1, b1, size1, ...] including the final
    sentinel. The pairs mix small random vocabularies (many repeats and
    ties), lengths 0 to ~600 (so that the "popular element" rule for
    len(b) >= 200 is exercised, also right at its thresholds), identical
    sequences, empty sequences, heavy duplication and edited copies.

score/testdata/difflib/cleaneval_script.json
    Explicit CleanEval cases given as bytes (CE_CASES below: golds without
    words, empty outputs, Latin-1 and UTF-8 no-break spaces), with the words
    and counts of cleaneval.py v1.0 (script_words, script_counts: a port of
    its normalize(), re_WS.split() and evaluate() to Python 3 bytes
    patterns) and the counts sluice gives (ce_counts).

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


# Evert's regular expressions, for str (files decoded by read_gold) and for
# bytes (files as the script reads them): \s of a Python 2 byte string is
# [ \t\n\r\f\v], and a bytes pattern in Python 3 means the same.
class _CERe:
    def __init__(self, conv):
        self.url = re.compile(conv(r"^[ \t\n\r\f\v]*URL.*$"), re.MULTILINE)
        self.ctrl = re.compile(conv(r"[\x00-\x1f]+"))
        self.tag = re.compile(conv(r"(<[phl]>)"), re.IGNORECASE)
        self.ws = re.compile(conv(r"[ \t\n\r\f\v]+"))
        self.conv = conv


CE_RE = {str: _CERe(str), bytes: _CERe(lambda x: x.encode("latin-1"))}


def script_words(text, mode):
    """The words of cleaneval.py's normalize() and re_WS.split() for text
    (str or bytes), the split's empty words included; "textonly" (sluice's
    addition) deletes the tag words from the labelled ones."""
    R = CE_RE[type(text)]
    text = R.url.sub(R.conv(""), text)
    text = R.ctrl.sub(R.conv(" "), text)
    tag = R.conv("\n<p> " if mode == "unlabelled" else "\n\\1 ")
    text = R.tag.sub(tag, text)
    words = R.ws.split(R.ws.sub(R.conv(" "), text))
    if mode == "textonly":
        words = [w for w in words if not R.tag.match(w)]
    return words


def ce_tokens(text, mode):
    """score.CleanEvalWords: the script's words without the empty ones."""
    return [w for w in script_words(text, mode) if w]


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


def align_counts(a, b, tag):
    """Word and tag counts of the alignment of a with b, as cleaneval.py's
    evaluate() makes them."""
    tp = tag_tp = 0
    for m in difflib.SequenceMatcher(None, a, b).get_matching_blocks():
        tp += m.size
        tag_tp += sum(1 for t in a[m.a:m.a + m.size] if tag.match(t))
    a_tags = sum(1 for t in a if tag.match(t))
    b_tags = sum(1 for t in b if tag.match(t))
    return {
        "tp": tp, "fp": len(a) - tp, "fn": len(b) - tp,
        "tag_tp": tag_tp, "tag_fp": a_tags - tag_tp, "tag_fn": b_tags - tag_tp,
    }


def script_counts(output, gold, mode):
    """cleaneval.py's counts (bytes as the script reads them; str works too)."""
    R = CE_RE[type(output)]
    return align_counts(script_words(output, mode), script_words(gold, mode), R.tag)


def ce_counts(output, gold, mode):
    """score.CleanEvalDetail: the script's counts, except that the empty words
    are dropped when the gold has other words."""
    R = CE_RE[type(output)]
    a, b = script_words(output, mode), script_words(gold, mode)
    if any(b):
        a, b = [w for w in a if w], [w for w in b if w]
    return align_counts(a, b, R.tag)


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


# Explicit cases, as bytes: the sides with no words (where the empty words
# of the script's split decide the score) and no-break spaces, Latin-1 (A0)
# and UTF-8 (C2 A0), which the script, reading bytes, keeps inside words.
CE_CASES = [
    ("empty gold file", b"<p> Hello world\n", b""),
    ("gold with its URL line only", b"<p> Hello world\n", b"URL: http://x/\n"),
    ("gold URL line without line end", b"<p> Hello world\n", b"URL: http://x/"),
    ("gold URL line after blank lines", b"<p> Hello world\n", b"\n\r\nURL: http://x/\r\n"),
    ("output without end spaces, empty gold", b"Hello world", b"URL: http://x/\n"),
    ("output of tags only, empty gold", b"<p>\n<h>", b""),
    ("empty output file", b"", b"URL: http://x/\n<p> a b\n"),
    ("output of white space only", b" \n", b"URL: http://x/\n<p> a b"),
    ("gold of tags only", b"<p> a\n", b"URL: http://x/\n<p>\n<p>\n"),
    ("both empty files", b"", b""),
    ("empty output, URL-only gold", b"", b"URL: http://x/\n"),
    ("white space output, URL-only gold", b"\n", b"URL: x\n"),
    ("Latin-1 output, UTF-8 gold", b"<p> a\xa0b caf\xe9 c\n", b"URL: x\n<p> a\xc2\xa0b caf\xc3\xa9 c\n"),
    ("Latin-1 output, Latin-1 gold", b"<p> a\xa0b c\n", b"URL: x\n<p> a\xa0b c\n"),
    ("UTF-8 output, UTF-8 gold", b"<p> a\xc2\xa0b c\n", b"URL: x\n<p> a\xc2\xa0b c\n"),
    ("no-break space alone", b"<p> a \xa0 b\xa0\n", b"URL: x\n<p> a b\n"),
    ("no-break space around a tag", b"\xa0<p>\xa0a\n", b"<p> \xa0a\n"),
]


def gen_cleaneval_cases():
    """For each case: the bytes (as Latin-1 code points) and, per mode, the
    script's words and counts and sluice's counts (ce_counts)."""
    cases = []
    for name, output, gold in CE_CASES:
        c = {"name": name, "output": output.decode("latin-1"), "gold": gold.decode("latin-1"), "modes": {}}
        for mode in ("labelled", "unlabelled", "textonly"):
            c["modes"][mode] = {
                "output_words": [w.decode("latin-1") for w in script_words(output, mode)],
                "gold_words": [w.decode("latin-1") for w in script_words(gold, mode)],
                "script": script_counts(output, gold, mode),
                "sluice": ce_counts(output, gold, mode),
            }
        cases.append(c)
    return {
        "generator": "scripts/gen_difflib_vectors.py",
        "python": sys.version.split()[0],
        "cases": cases,
    }


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, separators=(",", ":"), sort_keys=True)
        fh.write("\n")
    print(f"wrote {os.path.relpath(path, ROOT)} ({os.path.getsize(path)} bytes)")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    write_json(os.path.join(OUT_DIR, "vectors.json"), gen_vectors())
    write_json(os.path.join(OUT_DIR, "cleaneval_script.json"), gen_cleaneval_cases())
    dev = gen_cleaneval_dev()
    if dev is None:
        print(f"{DEV_DIR} not found: cleaneval_dev.json left unchanged")
    else:
        write_json(os.path.join(OUT_DIR, "cleaneval_dev.json"), dev)


if __name__ == "__main__":
    main()

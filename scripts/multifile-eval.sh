#!/bin/sh
# WC Cleaner's multiple-file modes (sluice clean --site multifile) on
# CleanPortalEval, against page-by-page cleaning: the CleanEval text-only
# scores of sluice eval (macro P, R, F1, then micro). Run from the project
# root with sluice on PATH (go install ./cmd/sluice); SLUICE_DATA names the
# data folder (default ../shared/data), OUT the output folder (default a new
# temporary one). See docs/site-multifile.md.
set -e
D=${SLUICE_DATA:-../shared/data}/cleanportaleval/html
OUT=${OUT:-$(mktemp -d)}
SITES="bbc.co.uk blogs.wsj.com tv.msnbc.com washingtonpost.com"
score() { printf '%-24s' "$1"; sluice eval --gold cleanportaleval "$OUT/$1" | grep '^cleaneval '; }
# site: each site's pages at once, the reference the median page.
site() { # name, flags...
	name=$1; shift
	for s in $SITES; do
		sluice clean -q "$@" -f cleaneval -o $OUT/$name $D/${s}_*.html
	done
	score $name
}
# pairs: as the thesis's Table 3.3 was made, each page with one other
# page of its site as the reference (the next by name; the last, the first).
pairs() { # name (the flags in $FLAGS)
	name=$1
	for s in $SITES; do
		first=; prev=
		for f in $D/${s}_*.html; do
			if [ -z "$first" ]; then first=$f; fi
			if [ -n "$prev" ]; then sluice clean -q --site multifile --reference "$f" $FLAGS -f cleaneval -o $OUT/$name "$prev"; fi
			prev=$f
		done
		sluice clean -q --site multifile --reference "$first" $FLAGS -f cleaneval -o $OUT/$name "$prev"
	done
	score $name
}
site default
site lqf-targetnode --filter "lqf>targetnode"
site targetnode --filter targetnode
site targetnode-sparse --filter targetnode-sparse
site multifile --site multifile
site multifile-from-target --site multifile --from-target
site multifile-prune --site multifile --prune
site multifile-sparse --site multifile --sparse
site multifile-prune-sparse --site multifile --prune --sparse
site multifile-prune-target --site multifile --prune --from-target
FLAGS= pairs pairs
FLAGS=--from-target pairs pairs-from-target
FLAGS=--prune pairs pairs-prune
FLAGS="--prune --sparse" pairs pairs-prune-sparse


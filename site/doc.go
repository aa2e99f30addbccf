// Package site is multi-page cleaning: what repeats across the pages of one
// host (menus, headers, footers, share bars, "most read" boxes) is template,
// not content, and a page is cleaned better knowing it.
//
// Two methods are here:
//
//   - A corpus-scale site model (Builder, Model): every block gets a
//     fingerprint, a 64-bit hash of its normalised text (Fingerprints); a
//     Builder counts, for each fingerprint, the pages of a host it occurs
//     on, in a table of bounded size; the Model says which blocks of a page
//     recur on enough of the host's other pages to be template evidence.
//     Model.Apply removes them from a labelled page and, with
//     Options.Rescue, keeps the page's own prose that the labeller dropped
//     next to its content (Rescue); Filter gives the same evidence to a
//     filter pipeline as scores. With Options.Prior, a Builder also keeps
//     the mean content score the labeller gave at each container path of
//     the host's pages, and Model.Apply first decides a page again with
//     that as a prior (ApplyPrior, prior.go): the site's other pages vote
//     where the labeller was unsure of this one.
//
//   - WC Cleaner's multiple-file cleaning (Vít Baisa's thesis, section 2.4):
//     MultiFile walks a page and a reference page of the same site level by
//     level and marks what they have in common; Reference picks the
//     reference, the page of median size; CleanMultiFile cleans a set of
//     pages of one site that way, with wc.py's modes (a reference page
//     given, prune, from-target, sparse: MultiFileOptions).
//
// Pages of one host seldom come together in a crawl. Grouper sorts a stream
// by host in bounded per-host buffers and hands back batches with the model
// of their host (WC Cleaner sorted whole ARC files instead). A corpus that
// can be read twice can use a Builder per host in a first pass and
// Model.Apply in the second.
//
// Measured on cleanportaleval (four sites, each page judged by a model of
// the other pages of its site; see TestCleanPortalEval): the site model
// raises the CleanEval text-only F1 of a trained model that never saw the
// sites (with the prior, 89.12 to 89.86) and of the lqf>targetnode
// pipeline (with Rescue, 80.9 to 86.4), and multi-file cleaning alone is
// below both, as the thesis found it below single-file cleaning.
package site

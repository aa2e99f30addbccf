// Package metadata reads what a page says about itself: its title without
// the site's name, authors, dates of publication and change, site name,
// description, language, canonical address, main image, licence,
// categories and tags. It reads the markup's own vocabularies, which are
// the same in every language: <meta> names and properties (HTML, Open
// Graph, Dublin Core, Twitter, article:*), JSON-LD (schema.org), microdata
// (itemprop), <link rel>, <time datetime>; and, when those say nothing,
// the page's first <h1> and an element marked as a byline.
//
// Extract runs on the parsed tree before ingest's precleaning removes
// scripts (where JSON-LD lives) and the head: sluice passes it as
// ingest.Options.Inspect. It fills page.Meta and never fails; every value
// it reads is bounded in size.
package metadata

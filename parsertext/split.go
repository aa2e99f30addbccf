package parsertext

// Split returns the sentences of text, split as Sentences splits the
// paragraphs of a page, with the word lists of the language lang (a BCP
// 47 tag; English when empty or unknown). It adds no full stops and
// treats text as one paragraph: benchmarks use it to split plain text the
// way the parser format does, so that only the formatting differs.
func Split(text, lang string) []string {
	return splitSentences(nil, text, loadLanguage(lang))
}

package sluice

import "github.com/sluice-project/sluice/langid"

// Language returns the language of the page's kept text (ISO 639-1,
// "en"), with the language it declares as evidence (langid.Document),
// and records it in Page.Meta.Language. Clean does not tell it (about
// 30 µs a page, a hundredth of cleaning; docs/langid.md); the json format
// tells it when it is not recorded.
func (r *Result) Language() string { return langid.SetPage(r.Page) }

// BlockLanguages returns, for each block of the page, its language when
// it is kept and tells one apart from the page's (langid.Block: at least
// langid.MinBlockLetters letters, a reliable detection); "" otherwise.
// The json format writes the same as each block's "lang" when asked to
// (render.JSON.BlockLanguages). It reads each block as far as
// langid.SampleBytes.
func (r *Result) BlockLanguages() []string { return langid.Blocks(r.Page) }

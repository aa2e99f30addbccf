package filter

import (
	"math"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/textunit"
)

func TestUnitSlots(t *testing.T) {
	for _, c := range []struct {
		u    float32
		want int
	}{{0, 0}, {-1, 0}, {0.25, 1}, {0.625, 1}, {1, 1}, {1.4, 1}, {1.6, 2}, {62.5, 63}, {100, 100}} {
		if got := unitSlots(c.u); got != c.want {
			t.Errorf("unitSlots(%v) = %d, want %d", c.u, got, c.want)
		}
	}
}

// zhPara is a Chinese paragraph of n characters (no punctuation).
func zhPara(n int) string {
	const s = "流经老城的河水在北部山区连续三天大雨之后上涨了将近两米沿河的店主们整个星期天都在把货物搬到楼上"
	r := []rune(strings.Repeat(s, n/len([]rune(s))+1))
	return string(r[:n])
}

// A line holds as many word-equivalents of Chinese as words of English of
// PerWord(Latin) letters: about 80/5.9 = 13.6.
func TestTextDensityScripts(t *testing.T) {
	en := strings.TrimSpace(strings.Repeat("abcd efghi ", 100)) // 4.5 letters a word
	zh := zhPara(320)                                           // 200 word-equivalents
	th := strings.Repeat("แม่น้ำที่ไหลผ่านเมืองเก่า", 20)
	want := 80 / latinColumns
	for name, s := range map[string]string{"en": en, "zh": zh, "th": th} {
		if got := textDensity(s, 80); math.Abs(got-want) > 1.5 {
			t.Errorf("%s: textDensity = %.2f, want about %.2f", name, got, want)
		}
	}
	if got := textDensity("首页", 80); math.Abs(got-2/1.6) > 1e-9 {
		t.Errorf("textDensity(首页) = %v, want 1.25", got)
	}
}

// On a Chinese page DSC keeps the paragraphs and drops the menu (counted
// by white space, each paragraph was one word among its tags, and DSC kept
// nothing).
func TestDSCChinese(t *testing.T) {
	var bs []fxBlock
	for _, m := range []string{"首页", "新闻", "体育", "财经", "天气", "文化"} {
		bs = append(bs, fxLink(m))
	}
	for range 3 {
		bs = append(bs, fxBlock{text: zhPara(90), tags: 2})
	}
	p := fxPage(bs...)
	if got := fxMask(Run(NewDSC(), p)); got != "......KKK" {
		t.Errorf("dsc = %s, want ......KKK", got)
	}
	if u := p.Blocks[6].Units; math.Abs(float64(u)-90/textunit.PerWord(textunit.Han)) > 1e-4 {
		t.Errorf("Units of 90 characters = %v", u)
	}
}

func TestLatinChars(t *testing.T) {
	p := fxPage(fxBlock{text: "Hello, world: 2026!"}, fxBlock{text: zhPara(16)}, fxBlock{text: "Ελληνικά και русский"})
	for i, want := range []float64{float64(p.Blocks[0].Chars), 16 * 4.9 / 1.6, float64(p.Blocks[2].Chars)} {
		if got := LatinChars(&p.Blocks[i]); math.Abs(got-want) > 1e-9 {
			t.Errorf("LatinChars(%q) = %v, want %v", p.Blocks[i].Text, got, want)
		}
	}
}

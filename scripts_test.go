package sluice

import (
	"context"
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/filter"
)

// scriptPage is a small news page in one script, written for these tests:
// a menu, an article of three paragraphs, a list of links to other stories
// and a footer of links.
type scriptPage struct {
	script   string
	headline string
	paras    [3]string
	menu     []string // the site's menu, eight items
	related  []string // "most read": longer link titles
	footer   []string // the footer's links
}

var scriptPages = []scriptPage{
	{
		script:   "Latin",
		headline: "Flood water reaches the old town",
		paras: [3]string{
			"The river that runs through the old town rose by almost two metres over the weekend, after three days of heavy rain in the hills to the north. Shop owners along the quay spent Sunday carrying their stock to the upper floors while volunteers filled sandbags outside the library.",
			"The town council met on Monday morning and agreed to open the sports hall as a shelter for the families whose homes were flooded. The mayor said that the new flood wall, finished last spring, had held along most of its length and had probably saved the market square.",
			"Engineers will inspect both road bridges this week before traffic is allowed back. Until then the buses will take the long way round through the eastern villages, and the railway company has promised extra trains in the morning and in the evening.",
		},
		menu:    []string{"Home", "News", "Sport", "Business", "Weather", "Culture", "Opinion", "Contact"},
		related: []string{"Schools stay closed until Thursday", "How to claim for flood damage", "Photos of the flooded quay", "Farmers count the cost of the rain", "Train timetable changes this week"},
		footer:  []string{"About us", "Privacy", "Terms of use", "Advertise", "Jobs", "Sitemap"},
	},
	{
		script:   "Cyrillic",
		headline: "Вода дошла до старого города",
		paras: [3]string{
			"Река, которая протекает через старый город, поднялась почти на два метра за выходные, после трёх дней сильных дождей в горах к северу. Владельцы магазинов на набережной всё воскресенье переносили товары на верхние этажи, а добровольцы наполняли мешки песком у библиотеки.",
			"В понедельник утром городской совет собрался и решил открыть спортивный зал как убежище для семей, чьи дома затопило. Мэр сказал, что новая дамба, построенная прошлой весной, выдержала почти на всём протяжении и, вероятно, спасла рыночную площадь.",
			"На этой неделе инженеры проверят оба автомобильных моста, прежде чем по ним снова пустят движение. До тех пор автобусы будут ходить в объезд через восточные деревни, а железная дорога обещала дополнительные поезда утром и вечером.",
		},
		menu:    []string{"Главная", "Новости", "Спорт", "Экономика", "Погода", "Культура", "Мнения", "Контакты"},
		related: []string{"Школы закрыты до четверга", "Как получить компенсацию за ущерб", "Фотографии затопленной набережной", "Фермеры подсчитывают убытки", "Изменения в расписании поездов"},
		footer:  []string{"О нас", "Конфиденциальность", "Условия использования", "Реклама", "Вакансии", "Карта сайта"},
	},
	{
		script:   "Greek",
		headline: "Το νερό έφτασε στην παλιά πόλη",
		paras: [3]string{
			"Το ποτάμι που διασχίζει την παλιά πόλη ανέβηκε σχεδόν δύο μέτρα το Σαββατοκύριακο, μετά από τρεις μέρες δυνατής βροχής στους λόφους βόρεια. Οι καταστηματάρχες στην προκυμαία πέρασαν την Κυριακή μεταφέροντας εμπορεύματα στους επάνω ορόφους, ενώ εθελοντές γέμιζαν σακιά με άμμο έξω από τη βιβλιοθήκη.",
			"Το δημοτικό συμβούλιο συνεδρίασε τη Δευτέρα το πρωί και αποφάσισε να ανοίξει το κλειστό γυμναστήριο ως καταφύγιο για τις οικογένειες που πλημμύρισαν τα σπίτια τους. Ο δήμαρχος είπε ότι το νέο ανάχωμα, που τελείωσε την περασμένη άνοιξη, άντεξε σχεδόν σε όλο του το μήκος.",
			"Οι μηχανικοί θα ελέγξουν τις δύο γέφυρες αυτή την εβδομάδα πριν επιτραπεί ξανά η κυκλοφορία. Μέχρι τότε τα λεωφορεία θα κάνουν τον γύρο από τα ανατολικά χωριά, και ο σιδηρόδρομος υποσχέθηκε επιπλέον δρομολόγια το πρωί και το βράδυ.",
		},
		menu:    []string{"Αρχική", "Ειδήσεις", "Αθλητικά", "Οικονομία", "Καιρός", "Πολιτισμός", "Απόψεις", "Επικοινωνία"},
		related: []string{"Κλειστά τα σχολεία ως την Πέμπτη", "Πώς θα πάρετε αποζημίωση", "Φωτογραφίες από την προκυμαία", "Οι αγρότες μετρούν τις ζημιές", "Αλλαγές στα δρομολόγια των τρένων"},
		footer:  []string{"Σχετικά με εμάς", "Απόρρητο", "Όροι χρήσης", "Διαφήμιση", "Θέσεις εργασίας", "Χάρτης ιστότοπου"},
	},
	{
		script:   "Han",
		headline: "洪水涌入老城区",
		paras: [3]string{
			"周末，流经老城的河水在北部山区连续三天大雨之后上涨了将近两米。沿河的店主们整个星期天都在把货物搬到楼上，志愿者们则在图书馆门外装沙袋。",
			"星期一上午，市议会开会决定开放体育馆，作为房屋被淹家庭的临时避难所。市长说，去年春天完工的新防洪墙在大部分地段都经受住了考验，很可能保住了市场广场。",
			"本周工程师将检查两座公路桥，确认安全后才会恢复通车。在此之前，公共汽车将绕道东边的村庄行驶，铁路公司也承诺在早晚增加班次。",
		},
		menu:    []string{"首页", "新闻", "体育", "财经", "天气", "文化", "评论", "联系我们"},
		related: []string{"中小学停课至星期四", "如何申请洪水损失赔偿", "图集：被淹的河岸", "农民清点雨灾损失", "本周火车时刻表调整"},
		footer:  []string{"关于我们", "隐私政策", "使用条款", "广告服务", "招聘信息", "网站地图"},
	},
	{
		script:   "Japanese",
		headline: "旧市街に洪水",
		paras: [3]string{
			"週末、北の山地で三日間続いた大雨のあと、旧市街を流れる川の水位が二メートル近く上がった。川沿いの店主たちは日曜日いっぱい商品を上の階へ運び、ボランティアは図書館の前で土のうを作った。",
			"月曜日の朝に市議会が開かれ、家が浸水した家族のための避難所として体育館を開放することが決まった。市長によると、昨年の春に完成した新しい堤防はほぼ全長にわたって持ちこたえ、市場の広場を守ったとみられる。",
			"今週中に技術者が二つの道路橋を点検し、安全が確認されてから通行が再開される。それまではバスが東の村々を回る迂回路を走り、鉄道会社は朝と夜に臨時列車を出すと約束した。",
		},
		menu:    []string{"ホーム", "ニュース", "スポーツ", "経済", "天気", "文化", "オピニオン", "お問い合わせ"},
		related: []string{"小中学校は木曜日まで休校", "浸水被害の補償を申請するには", "写真で見る川沿いの様子", "農家が大雨の被害を調査", "今週の列車ダイヤの変更"},
		footer:  []string{"会社概要", "プライバシー", "利用規約", "広告掲載", "採用情報", "サイトマップ"},
	},
	{
		script:   "Arabic",
		headline: "مياه الفيضان تصل إلى المدينة القديمة",
		paras: [3]string{
			"ارتفع منسوب النهر الذي يمر عبر المدينة القديمة بنحو مترين خلال عطلة نهاية الأسبوع، بعد ثلاثة أيام من الأمطار الغزيرة على التلال في الشمال. وقضى أصحاب المحلات على الرصيف يوم الأحد في نقل بضائعهم إلى الطوابق العليا، بينما ملأ المتطوعون أكياس الرمل أمام المكتبة.",
			"اجتمع مجلس البلدية صباح الاثنين وقرر فتح الصالة الرياضية مأوى للعائلات التي غمرت المياه منازلها. وقال رئيس البلدية إن الجدار الجديد المضاد للفيضانات، الذي اكتمل في الربيع الماضي، صمد على معظم طوله وربما أنقذ ساحة السوق.",
			"سيفحص المهندسون الجسرين هذا الأسبوع قبل السماح بعودة حركة المرور. وحتى ذلك الحين ستسلك الحافلات طريقا أطول عبر القرى الشرقية، ووعدت شركة السكك الحديدية بقطارات إضافية في الصباح والمساء.",
		},
		menu:    []string{"الرئيسية", "أخبار", "رياضة", "اقتصاد", "الطقس", "ثقافة", "رأي", "اتصل بنا"},
		related: []string{"المدارس مغلقة حتى الخميس", "كيف تطالب بتعويض عن الأضرار", "صور الرصيف الغارق", "المزارعون يحصون خسائر الأمطار", "تغييرات في مواعيد القطارات"},
		footer:  []string{"من نحن", "الخصوصية", "شروط الاستخدام", "أعلن معنا", "وظائف", "خريطة الموقع"},
	},
	{
		script:   "Thai",
		headline: "น้ำท่วมถึงเมืองเก่า",
		paras: [3]string{
			"แม่น้ำที่ไหลผ่านเมืองเก่าสูงขึ้นเกือบสองเมตรในช่วงสุดสัปดาห์ หลังจากฝนตกหนักติดต่อกันสามวันบนเนินเขาทางทิศเหนือ เจ้าของร้านค้าริมท่าน้ำใช้เวลาทั้งวันอาทิตย์ขนสินค้าขึ้นชั้นบน ส่วนอาสาสมัครช่วยกันกรอกกระสอบทรายหน้าห้องสมุด",
			"เช้าวันจันทร์สภาเมืองประชุมและตกลงเปิดโรงยิมเป็นที่พักชั่วคราวสำหรับครอบครัวที่บ้านถูกน้ำท่วม นายกเทศมนตรีกล่าวว่ากำแพงกันน้ำแห่งใหม่ที่สร้างเสร็จเมื่อฤดูใบไม้ผลิที่แล้วต้านน้ำไว้ได้เกือบตลอดแนว และน่าจะช่วยรักษาลานตลาดไว้ได้",
			"สัปดาห์นี้วิศวกรจะตรวจสะพานทั้งสองแห่งก่อนจะเปิดให้รถสัญจรอีกครั้ง ระหว่างนี้รถประจำทางจะวิ่งอ้อมผ่านหมู่บ้านทางตะวันออก และการรถไฟสัญญาว่าจะเพิ่มขบวนรถในช่วงเช้าและเย็น",
		},
		menu:    []string{"หน้าแรก", "ข่าว", "กีฬา", "เศรษฐกิจ", "สภาพอากาศ", "วัฒนธรรม", "ความคิดเห็น", "ติดต่อเรา"},
		related: []string{"โรงเรียนปิดถึงวันพฤหัสบดี", "วิธียื่นขอค่าชดเชยน้ำท่วม", "ภาพริมท่าน้ำที่ถูกน้ำท่วม", "เกษตรกรนับความเสียหายจากฝน", "ตารางเดินรถไฟเปลี่ยนสัปดาห์นี้"},
		footer:  []string{"เกี่ยวกับเรา", "ความเป็นส่วนตัว", "เงื่อนไขการใช้งาน", "ลงโฆษณา", "ร่วมงานกับเรา", "แผนผังเว็บไซต์"},
	},
}

// links writes items as a list of links.
func (sp *scriptPage) links(b *strings.Builder, items []string) {
	b.WriteString("<ul>")
	for i, it := range items {
		fmt.Fprintf(b, `<li><a href="/p/%d">%s</a></li>`, i, html.EscapeString(it))
	}
	b.WriteString("</ul>\n")
}

// html returns the page's markup.
func (sp *scriptPage) html() []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><meta charset=utf-8><title>")
	b.WriteString(html.EscapeString(sp.headline) + "</title></head><body>\n<header><nav>")
	sp.links(&b, sp.menu)
	b.WriteString("</nav></header>\n<main><article><h1>" + html.EscapeString(sp.headline) + "</h1>\n")
	for _, p := range sp.paras {
		b.WriteString("<p>" + html.EscapeString(p) + "</p>\n")
	}
	b.WriteString("</article>\n<aside>")
	sp.links(&b, sp.related)
	b.WriteString("</aside></main>\n<footer>")
	sp.links(&b, sp.footer)
	b.WriteString("</footer>\n</body></html>\n")
	return []byte(b.String())
}

// TestScriptsKeepParagraphsDropMenus runs every filter and the default
// heuristic pipeline alone (no fallback) on the page of every script: the
// three paragraphs are kept, whole, and no menu or footer link is. Counted
// by white space, dsc, tccb, density and bte kept nothing of the Chinese,
// Japanese or Thai article.
func TestScriptsKeepParagraphsDropMenus(t *testing.T) {
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, expr := range append([]string{DefaultFilter}, filter.Names()...) {
		f, err := filter.Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range scriptPages {
			res, err := c.Segment(context.Background(), Input{Data: sp.html()})
			if err != nil {
				t.Fatal(err)
			}
			var kept []string
			for i, s := range filter.Run(f, res.Page) {
				if s >= filter.Keep {
					kept = append(kept, res.Page.Blocks[i].Text)
				}
			}
			checkScriptPage(t, expr, &sp, strings.Join(kept, "\n"), !keepsRelated[expr])
		}
	}
}

// TestScriptsModel is TestScriptsKeepParagraphsDropMenus for the default
// cleaner, the trained model.
func TestScriptsModel(t *testing.T) {
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range scriptPages {
		res, err := c.Clean(context.Background(), Input{Data: sp.html()})
		if err != nil {
			t.Fatal(err)
		}
		checkScriptPage(t, "model", &sp, res.Text(), true)
	}
}

// keepsRelated are the filters that keep some of the "most read" links
// right after the article on some of the pages, so that
// TestScriptsKeepParagraphsDropMenus does not ask them to drop it: bte
// (its one region runs on into the list, Latin included), ttr (smoothing
// lifts the first item next to the article, in every script), accb (link
// tags are not code for it, by design: Latin keeps one item, Cyrillic two)
// and tccb (drops the list in six scripts but keeps four of the five
// Japanese titles, longer in word-equivalents than the English ones).
var keepsRelated = map[string]bool{"bte": true, "ttr": true, "accb": true, "tccb": true}

// checkScriptPage asserts what the output text of sp must and must not
// hold: every paragraph whole, no line that is a menu or footer link, and
// with related no line that is a "most read" link either.
func checkScriptPage(t *testing.T, pipe string, sp *scriptPage, text string, related bool) {
	t.Helper()
	for i, p := range sp.paras {
		if !strings.Contains(text, p) {
			t.Errorf("%s, %s: paragraph %d dropped; kept:\n%s", pipe, sp.script, i+1, text)
		}
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	lists := [][]string{sp.menu, sp.footer}
	if related {
		lists = append(lists, sp.related)
	}
	for _, items := range lists {
		for _, it := range items {
			if lines[it] {
				t.Errorf("%s, %s: link %q kept", pipe, sp.script, it)
			}
		}
	}
}

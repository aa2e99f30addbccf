package ingest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// Regenerate the fixtures in testdata/charset with
//
//	go test ./ingest -run TestCharsetFixtures -update-charset
var updateCharset = flag.Bool("update-charset", false, "rewrite testdata/charset fixtures from the texts in charset_test.go")

// Texts for the fixtures, written for these tests.
var (
	koreanTitle = "강가의 작은 도서관"
	koreanText  = []string{
		"오늘 아침에는 비가 조금 내렸지만 오후가 되자 하늘이 맑게 개었다. 우리는 강가를 따라 천천히 걸으면서 지난 여름에 다녀온 바닷가 마을 이야기를 나누었다. 그 마을에는 작은 도서관이 하나 있었는데, 주민들이 직접 책을 기증해서 만든 곳이라고 했다. 아이들은 매일 저녁 그곳에 모여 동화책을 읽었고, 어른들은 신문을 보거나 차를 마시며 이야기를 나누었다.",
		"도서관 옆에는 오래된 빵집이 있었는데, 아침마다 갓 구운 빵 냄새가 골목 전체에 퍼졌다. 나는 그 냄새를 맡으며 하루를 시작하는 것이 참 좋았다. 다음 해에도 꼭 다시 가 보고 싶다고 친구에게 말했더니, 친구도 웃으면서 같은 생각이라고 대답했다. 우리는 내년 여름에 함께 그 마을을 다시 찾아가기로 약속했다.",
	}
	chineseTitle = "公园旁边的茶馆"
	chineseText  = []string{
		"春天来了，城市边上的小公园里开满了各种颜色的花。每天早上，很多老人都会到这里来散步、打太极拳，或者坐在长椅上聊天。孩子们放学以后也喜欢在草地上跑来跑去，放风筝，捉蝴蝶。",
		"公园旁边有一家不大的茶馆，老板是一位很热情的中年人，他总是笑着给客人介绍新到的绿茶。听说这家茶馆已经开了二十多年了，附近的居民几乎都来过。有时候晚上还会有人在里面弹琴唱歌，气氛非常热闹。我觉得生活在这样的地方是一件很幸福的事情，因为人和人之间的关系很亲近，大家互相帮助，彼此关心。",
	}
	traditionalTitle = "公園旁邊的茶館"
	traditionalText  = []string{
		"春天來了，城市邊上的小公園裡開滿了各種顏色的花。每天早上，很多老人都會到這裡來散步、打太極拳，或者坐在長椅上聊天。孩子們放學以後也喜歡在草地上跑來跑去，放風箏，捉蝴蝶。",
		"公園旁邊有一家不大的茶館，老闆是一位很熱情的中年人，他總是笑著給客人介紹新到的綠茶。聽說這家茶館已經開了二十多年了，附近的居民幾乎都來過。有時候晚上還會有人在裡面彈琴唱歌，氣氛非常熱鬧。我覺得生活在這樣的地方是一件很幸福的事情，因為人和人之間的關係很親近，大家互相幫助，彼此關心。",
	}
	japaneseTitle = "雨の日の読書"
	japaneseText  = []string{
		"昨日は朝から雨が降っていたので、一日中家で本を読んで過ごしました。読んだのは、小さな町の図書館で働く女性の物語です。彼女は毎日たくさんの人と出会い、それぞれの人生について少しずつ知っていきます。ある日、古い手紙が本の間から見つかり、その手紙をきっかけに町の歴史を調べ始めます。",
		"物語はゆっくりと進みますが、最後まで飽きることなく読むことができました。夕方になると雨はやみ、窓の外には虹が見えました。夕食には母が作ってくれた温かいうどんを食べて、とても幸せな気持ちになりました。来週は友達と一緒に美術館へ行く予定なので、今から楽しみにしています。",
	}
	russianTitle = "Прогулка по старому городу"
	russianText  = []string{
		"Вчера вечером мы с друзьями долго гуляли по старому городу. Узкие улицы были освещены тёплым светом фонарей, а из маленьких кафе доносилась тихая музыка. Мы зашли в книжный магазин, который работает здесь уже больше пятидесяти лет, и каждый выбрал себе по одной книге.",
		"Продавец рассказал нам, что раньше в этом здании была типография, а на втором этаже жил её владелец со своей большой семьёй. Потом мы сидели на набережной, смотрели на реку и обсуждали планы на лето. Кто-то предложил поехать на озеро, кто-то хотел отправиться в горы, но в конце концов все согласились, что главное - провести это время вместе.",
	}
	frenchTitle = "Le café du coin"
	frenchText  = []string{
		"Le petit café au coin de la rue ouvre à sept heures, et les habitués arrivent dès l'ouverture. On y sert un café noir très fort, des croissants encore tièdes et, le vendredi, une tarte aux pommes préparée par la patronne. Un café coûte deux €, comme il y a dix ans.",
		"Les étudiants du quartier y révisent leurs examens l'après-midi, pendant que les anciens jouent aux cartes près de la fenêtre. « C’est un lieu simple », dit la patronne, « mais chacun s’y sent chez soi, et c’est là toute notre œuvre. »",
	}
)

// Texts in the languages of other legacy encodings, for statistical
// detection.
var (
	polishTitle = "Kawiarnia nad rzeką"
	polishText  = []string{
		"Wczoraj wieczorem poszliśmy z przyjaciółmi na długi spacer brzegiem rzeki. Słońce zachodziło powoli, a na wodzie odbijały się złote i różowe światła. Zatrzymaliśmy się w małej kawiarni, gdzie zamówiliśmy gorącą czekoladę i szarlotkę z lodami.",
		"Właścicielka opowiedziała nam, że kawiarnia należy do jej rodziny od ponad czterdziestu lat. Jej dziadek sam zbudował drewniane stoły, które do dziś stoją przy oknach. Obiecaliśmy, że wrócimy tu jesienią, kiedy liście na drzewach zmienią kolor.",
	}
	czechTitle = "Knihkupectví ve starém městě"
	czechText  = []string{
		"Včera odpoledne jsme se procházeli po starém městě a zastavili jsme se v malém knihkupectví. Prodavač nám řekl, že obchod patří jeho rodině už přes sto let. Koupil jsem si knihu o historii českých hradů a zámků.",
		"Potom jsme seděli u řeky, dívali se na lodě a povídali si o letních plánech. Příští týden chceme jet na hory, pokud bude hezké počasí. Večer jsme si dali večeři v hospodě, kde vaří výborný guláš.",
	}
	greekTitle = "Ένα βιβλιοπωλείο στην παλιά πόλη"
	greekText  = []string{
		"Χθες το απόγευμα περπατήσαμε στην παλιά πόλη και σταματήσαμε σε ένα μικρό βιβλιοπωλείο. Ο ιδιοκτήτης μας είπε ότι το κατάστημα ανήκει στην οικογένειά του εδώ και πενήντα χρόνια. Αγόρασα ένα βιβλίο για την ιστορία της Κρήτης.",
		"Μετά καθίσαμε σε μια ταβέρνα κοντά στη θάλασσα και φάγαμε φρέσκο ψάρι με σαλάτα. Ο ήλιος έδυε αργά και ο ουρανός έγινε κόκκινος. Αποφασίσαμε να επιστρέψουμε εδώ το επόμενο καλοκαίρι.",
	}
	turkishTitle = "Sahilde bir akşam"
	turkishText  = []string{
		"Dün akşam arkadaşlarımla birlikte sahil boyunca uzun bir yürüyüş yaptık. Güneş yavaş yavaş batarken denizin üzerinde altın rengi ışıklar parlıyordu. Küçük bir çay bahçesinde oturup sıcak çay içtik ve simit yedik.",
		"Çay bahçesinin sahibi bize işletmenin kırk yıldır ailesine ait olduğunu anlattı. Babası ağaçtan masaları kendi elleriyle yapmış. Gelecek yaz yine buraya gelmeye söz verdik.",
	}
	hebrewTitle = "ערב על חוף הים"
	hebrewText  = []string{
		"אתמול בערב טיילנו עם חברים לאורך חוף הים. השמש שקעה לאט והשמיים נצבעו בכתום ובוורוד. ישבנו בבית קפה קטן ושתינו קפה חם עם עוגת שוקולד.",
		"בעלת המקום סיפרה לנו שהמשפחה שלה מנהלת את בית הקפה כבר ארבעים שנה. אבא שלה בנה בעצמו את השולחנות מעץ. הבטחנו לחזור לכאן בקיץ הבא עם הילדים.",
	}
	arabicTitle = "مساء على شاطئ البحر"
	arabicText  = []string{
		"خرجنا مساء أمس مع الأصدقاء في نزهة طويلة على شاطئ البحر. كانت الشمس تغرب ببطء وتلونت السماء باللون البرتقالي. جلسنا في مقهى صغير وشربنا الشاي بالنعناع.",
		"أخبرتنا صاحبة المقهى أن عائلتها تدير هذا المكان منذ أربعين عاما. وقد صنع والدها الطاولات الخشبية بيديه. وعدنا أن نعود إلى هنا في الصيف القادم مع الأطفال.",
	}
	thaiTitle = "ร้านกาแฟริมทะเล"
	thaiText  = []string{
		"เมื่อวานตอนเย็นเราไปเดินเล่นริมทะเลกับเพื่อน ๆ พระอาทิตย์ค่อย ๆ ตกและท้องฟ้าเปลี่ยนเป็นสีส้ม เรานั่งที่ร้านกาแฟเล็ก ๆ และดื่มชาเย็น",
		"เจ้าของร้านเล่าให้ฟังว่าครอบครัวของเธอเปิดร้านนี้มาสี่สิบปีแล้ว พ่อของเธอทำโต๊ะไม้เองทั้งหมด เราสัญญาว่าจะกลับมาที่นี่อีกในฤดูร้อนหน้า",
	}
	ukrainianTitle = "Вечір у старому місті"
	ukrainianText  = []string{
		"Учора ввечері ми з друзями довго гуляли старим містом. Вузькі вулиці були освітлені теплим світлом ліхтарів, а з маленьких кав'ярень лунала тиха музика. Ми зайшли до книгарні, яка працює тут понад п'ятдесят років.",
		"Продавчиня розповіла нам, що раніше в цьому будинку була друкарня. Потім ми сиділи на набережній, дивилися на річку й обговорювали плани на літо. Хтось запропонував поїхати в Карпати, і всі погодилися.",
	}
	germanTitle = "Ein Abend in der Altstadt"
	germanText  = []string{
		"Gestern Abend sind wir mit Freunden lange durch die Altstadt spaziert. Die schmalen Straßen waren von warmem Laternenlicht beleuchtet, und aus den kleinen Cafés klang leise Musik. Wir kauften Brötchen und Käse für das Frühstück.",
		"Der Buchhändler erzählte uns, dass sein Geschäft seit über hundert Jahren in Familienbesitz ist. Danach saßen wir am Ufer, schauten auf den Fluss und sprachen über unsere Pläne für den Sommer.",
	}
)

// buildPage builds a small HTML page around a title and paragraphs; head is put
// in the head before the title.
func buildPage(head, title string, paras []string) string {
	var s strings.Builder
	s.WriteString("<!DOCTYPE html>\n<html>\n<head>\n")
	s.WriteString(head)
	s.WriteString("<title>" + title + "</title>\n")
	s.WriteString("<link rel=\"stylesheet\" href=\"/css/site.css\">\n</head>\n<body>\n")
	s.WriteString("<div class=\"nav\"><a href=\"/\">Home</a> | <a href=\"/about\">About</a></div>\n")
	s.WriteString("<h1>" + title + "</h1>\n")
	for _, p := range paras {
		s.WriteString("<p>" + p + "</p>\n")
	}
	s.WriteString("<div class=\"footer\">(c) 2024 Example</div>\n</body>\n</html>\n")
	return s.String()
}

// lateMetaHead is a head of more than 2 KB before its meta declaration, with
// decoy declarations in a comment, a script and a style.
func lateMetaHead(label string) string {
	var s strings.Builder
	s.WriteString("<!-- old template: <meta charset=\"koi8-r\"> -->\n")
	s.WriteString("<script>var tpl = '<meta charset=\"utf-16\">'; if (a < b && c > d) { x(); }</script>\n")
	s.WriteString("<style>\n")
	for i := 0; i < 40; i++ {
		s.WriteString(".block-" + strings.Repeat("x", i%7) + " { margin: 0 auto; padding: 4px; }\n")
	}
	s.WriteString("</style>\n")
	for i := 0; i < 12; i++ {
		s.WriteString("<meta name=\"keywords\" content=\"town, walk, books, river, summer\">\n")
	}
	s.WriteString("<META CONTENT='text/html; charset=" + label + "' HTTP-EQUIV=Content-Type >\n")
	return s.String()
}

func utf16LE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func utf16BE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

// A fixture is a page in testdata/charset, built from text and encoding.
type fixture struct {
	file   string
	html   string            // the page as UTF-8
	enc    encoding.Encoding // nil: UTF-8
	raw    func(string) []byte
	want   string // expected Charset.Name
	source string // expected Charset.Source
	ct     string // Content-Type given to DetectCharset
	texts  []string
}

func fixtures() []fixture {
	all := func(title string, paras []string) []string { return append([]string{title}, paras...) }
	return []fixture{
		{file: "ko-euckr.html", html: buildPage("", koreanTitle, koreanText), enc: korean.EUCKR,
			want: "euc-kr", source: SourceDetected, texts: all(koreanTitle, koreanText)},
		{file: "zh-gbk.html", html: buildPage("", chineseTitle, chineseText), enc: simplifiedchinese.GBK,
			want: "gb18030", source: SourceDetected, texts: all(chineseTitle, chineseText)},
		{file: "zh-big5.html", html: buildPage("", traditionalTitle, traditionalText), enc: traditionalchinese.Big5,
			want: "big5", source: SourceDetected, texts: all(traditionalTitle, traditionalText)},
		{file: "ja-sjis.html", html: buildPage("", japaneseTitle, japaneseText), enc: japanese.ShiftJIS,
			want: "shift_jis", source: SourceDetected, texts: all(japaneseTitle, japaneseText)},
		{file: "ja-eucjp.html", html: buildPage("", japaneseTitle, japaneseText), enc: japanese.EUCJP,
			want: "euc-jp", source: SourceDetected, texts: all(japaneseTitle, japaneseText)},
		{file: "ru-1251.html", html: buildPage("", russianTitle, russianText), enc: charmap.Windows1251,
			want: "windows-1251", source: SourceDetected, texts: all(russianTitle, russianText)},
		{file: "ru-koi8r.html", html: buildPage("", russianTitle, russianText), enc: charmap.KOI8R,
			want: "koi8-r", source: SourceDetected, texts: all(russianTitle, russianText)},
		{file: "ko-utf8.html", html: buildPage("", koreanTitle, koreanText),
			want: "utf-8", source: SourceUTF8, texts: all(koreanTitle, koreanText)},
		{file: "zh-utf8.html", html: buildPage("", chineseTitle, chineseText),
			want: "utf-8", source: SourceUTF8, texts: all(chineseTitle, chineseText)},
		{file: "ru-utf8.html", html: buildPage("", russianTitle, russianText),
			want: "utf-8", source: SourceUTF8, texts: all(russianTitle, russianText)},
		{file: "ru-late-meta.html", html: buildPage(lateMetaHead("windows-1251"), russianTitle, russianText), enc: charmap.Windows1251,
			want: "windows-1251", source: SourceMeta, texts: all(russianTitle, russianText)},
		{file: "fr-mislabeled.html", html: buildPage("<meta charset=\"utf-8\">\n", frenchTitle, frenchText), enc: charmap.Windows1252,
			want: "windows-1252", source: SourceDetected, texts: all(frenchTitle, frenchText)},
		{file: "ko-bom-utf8.html", html: "\uFEFF" + buildPage("", koreanTitle, koreanText),
			want: "utf-8", source: SourceBOM, texts: all(koreanTitle, koreanText)},
		{file: "ru-bom-utf16le.html", html: "\uFEFF" + buildPage("<meta charset=\"utf-8\">\n", russianTitle, russianText), raw: utf16LE,
			want: "utf-16le", source: SourceBOM, texts: all(russianTitle, russianText)},
		{file: "pl-1250.html", html: buildPage("", polishTitle, polishText), enc: charmap.Windows1250,
			want: "windows-1250", source: SourceDetected, texts: all(polishTitle, polishText)},
		{file: "pl-latin2.html", html: buildPage("", polishTitle, polishText), enc: charmap.ISO8859_2,
			want: "iso-8859-2", source: SourceDetected, texts: all(polishTitle, polishText)},
		{file: "cs-1250.html", html: buildPage("", czechTitle, czechText), enc: charmap.Windows1250,
			want: "windows-1250", source: SourceDetected, texts: all(czechTitle, czechText)},
		{file: "cs-latin2.html", html: buildPage("", czechTitle, czechText), enc: charmap.ISO8859_2,
			want: "iso-8859-2", source: SourceDetected, texts: all(czechTitle, czechText)},
		{file: "de-1252.html", html: buildPage("", germanTitle, germanText), enc: charmap.Windows1252,
			want: "windows-1252", source: SourceDetected, texts: all(germanTitle, germanText)},
		{file: "el-1253.html", html: buildPage("", greekTitle, greekText), enc: charmap.Windows1253,
			want: "windows-1253", source: SourceDetected, texts: all(greekTitle, greekText)},
		{file: "tr-1254.html", html: buildPage("", turkishTitle, turkishText), enc: charmap.Windows1254,
			want: "windows-1254", source: SourceDetected, texts: all(turkishTitle, turkishText)},
		{file: "he-1255.html", html: buildPage("", hebrewTitle, hebrewText), enc: charmap.Windows1255,
			want: "windows-1255", source: SourceDetected, texts: all(hebrewTitle, hebrewText)},
		{file: "ar-1256.html", html: buildPage("", arabicTitle, arabicText), enc: charmap.Windows1256,
			want: "windows-1256", source: SourceDetected, texts: all(arabicTitle, arabicText)},
		{file: "ar-iso8859-6.html", html: buildPage("", arabicTitle, arabicText), enc: charmap.ISO8859_6,
			want: "iso-8859-6", source: SourceDetected, texts: all(arabicTitle, arabicText)},
		{file: "th-874.html", html: buildPage("", thaiTitle, thaiText), enc: charmap.Windows874,
			want: "windows-874", source: SourceDetected, texts: all(thaiTitle, thaiText)},
		{file: "uk-1251.html", html: buildPage("", ukrainianTitle, ukrainianText), enc: charmap.Windows1251,
			want: "windows-1251", source: SourceDetected, texts: all(ukrainianTitle, ukrainianText)},
		{file: "uk-koi8u.html", html: buildPage("", ukrainianTitle, ukrainianText), enc: charmap.KOI8U,
			want: "koi8-u", source: SourceDetected, texts: all(ukrainianTitle, ukrainianText)},
		{file: "ru-iso8859-5.html", html: buildPage("", russianTitle, russianText), enc: charmap.ISO8859_5,
			want: "iso-8859-5", source: SourceDetected, texts: all(russianTitle, russianText)},
		{file: "ru-ibm866.html", html: buildPage("", russianTitle, russianText), enc: charmap.CodePage866,
			want: "ibm866", source: SourceDetected, texts: all(russianTitle, russianText)},
		{file: "ru-http-koi8r.html", html: buildPage("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">\n", russianTitle, russianText), enc: charmap.KOI8R,
			ct: "text/html; charset=\"KOI8-R\"", want: "koi8-r", source: SourceHTTP, texts: all(russianTitle, russianText)},
	}
}

// bytes returns the encoded page.
func (f fixture) bytes(t testing.TB) []byte {
	switch {
	case f.raw != nil:
		return f.raw(f.html)
	case f.enc == nil:
		return []byte(f.html)
	}
	b, err := f.enc.NewEncoder().Bytes([]byte(f.html))
	if err != nil {
		t.Fatalf("%s: encoding the fixture: %v", f.file, err)
	}
	return b
}

// TestCharsetFixtures checks that the fixtures on disk are the pages built
// here, and rewrites them with -update-charset.
func TestCharsetFixtures(t *testing.T) {
	for _, f := range fixtures() {
		want := f.bytes(t)
		path := filepath.Join("testdata", "charset", f.file)
		if *updateCharset {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update-charset to create the fixtures)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the page built in charset_test.go; run with -update-charset", path)
		}
	}
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "charset", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDetectCharsetFixtures(t *testing.T) {
	for _, f := range fixtures() {
		t.Run(f.file, func(t *testing.T) {
			b := readFixture(t, f.file)
			c := DetectCharset(b, f.ct, "")
			if c.Name != f.want || c.Source != f.source {
				t.Errorf("DetectCharset = %s (%s), want %s (%s)", c.Name, c.Source, f.want, f.source)
			}
			out, m := c.Decode(b)
			if !utf8.Valid(out) {
				t.Fatalf("Decode output is not valid UTF-8")
			}
			for _, s := range f.texts {
				i := bytes.Index(out, []byte(s))
				if i < 0 {
					t.Errorf("decoded page lacks %.40q...", s)
					continue
				}
				// The text's offsets map back to the same text in the input.
				orig := b[m.Original(i):m.Original(i+len(s))]
				if got := decodeWith(t, f, orig); got != s {
					t.Errorf("Original maps %.40q... to bytes decoding as %.40q...", s, got)
				}
			}
			if strings.Contains(string(out), "\uFFFD") {
				t.Errorf("decoded page contains U+FFFD")
			}
		})
	}
}

// decodeWith decodes a piece of a fixture with the fixture's own encoding.
func decodeWith(t testing.TB, f fixture, b []byte) string {
	switch {
	case f.raw != nil:
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(u))
	case f.enc == nil:
		return string(b)
	}
	s, err := f.enc.NewDecoder().Bytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(s)
}

func mustEncode(t testing.TB, e encoding.Encoding, s string) string {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDetectCharset(t *testing.T) {
	ru := strings.Join(russianText, "\n")
	ru1251 := mustEncode(t, charmap.Windows1251, ru)
	ruKOI8 := mustEncode(t, charmap.KOI8R, ru)
	body1251 := "<body><p>" + ru1251 + "</p></body>"
	bodyUTF8 := "<body><p>" + ru + "</p></body>"
	head := func(h string) string { return "<html><head>" + h + "<title>x</title></head>" }

	tests := []struct {
		name         string
		b            string
		ct, wrapper  string
		want, source string
	}{
		{"empty", "", "", "", "utf-8", SourceUTF8},
		{"ascii", "<p>plain text</p>", "", "", "utf-8", SourceUTF8},
		{"utf-8 no declaration", bodyUTF8, "", "", "utf-8", SourceUTF8},

		// 1. BOM first.
		{"utf-8 BOM beats http", "\xEF\xBB\xBF" + bodyUTF8, "text/html; charset=koi8-r", "", "utf-8", SourceBOM},
		{"utf-16le BOM", "\xFF\xFEh\x00i\x00", "", "windows-1251", "utf-16le", SourceBOM},
		{"utf-16be BOM", "\xFE\xFF\x00h\x00i", "", "", "utf-16be", SourceBOM},

		// 2. to 4.: http, then wrapper, then meta.
		{"http beats wrapper and meta", head(`<meta charset="koi8-r">`) + body1251, "text/html; charset=windows-1251", "koi8-r", "windows-1251", SourceHTTP},
		{"wrapper beats meta", head(`<meta charset="koi8-r">`) + body1251, "", "windows-1251", "windows-1251", SourceWrapper},
		{"wrapper unset is ignored", head(`<meta charset="windows-1251">`) + body1251, "", "unset", "windows-1251", SourceMeta},
		{"wrapper unknown label is ignored", head(`<meta charset="windows-1251">`) + body1251, "", "unknown- ", "windows-1251", SourceMeta},
		{"http unknown label is ignored", head(`<meta charset="windows-1251">`) + body1251, "text/html; charset=x-nonsense", "", "windows-1251", SourceMeta},
		{"http without charset", head(`<meta charset="windows-1251">`) + body1251, "text/html", "", "windows-1251", SourceMeta},
		{"http quoted, spaced, upper case", body1251, `text/html; format=flowed; CharSet = "Windows-1251" ; x=y`, "", "windows-1251", SourceHTTP},
		{"http unquoted, no space", body1251, "text/html;charset=windows-1251", "", "windows-1251", SourceHTTP},
		{"wrapper label utf8", bodyUTF8, "", "utf8", "utf-8", SourceWrapper},

		// 4. meta forms.
		{"meta charset unquoted", head(`<meta charset=windows-1251>`) + body1251, "", "", "windows-1251", SourceMeta},
		{"meta charset single quotes, self-closing", head(`<meta charset='windows-1251'/>`) + body1251, "", "", "windows-1251", SourceMeta},
		{"meta http-equiv upper case", head(`<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1251">`) + body1251, "", "", "windows-1251", SourceMeta},
		{"meta content before http-equiv", head(`<meta content="text/html;charset=windows-1251" http-equiv="content-type">`) + body1251, "", "", "windows-1251", SourceMeta},
		{"meta content quoted charset", head(`<meta http-equiv=content-type content='text/html; charset="windows-1251"'>`) + body1251, "", "", "windows-1251", SourceMeta},
		{"meta content without http-equiv is no declaration", head(`<meta content="text/html; charset=koi8-r">`) + body1251, "", "", "windows-1251", SourceDetected},
		{"meta in a comment is skipped", head(`<!-- <meta charset="koi8-r"> --><meta charset="windows-1251">`) + body1251, "", "", "windows-1251", SourceMeta},
		{"meta in a script is skipped", head(`<script>document.write('<meta charset="koi8-r">')</script><meta charset="windows-1251">`) + body1251, "", "", "windows-1251", SourceMeta},
		{"meta after upper-case SCRIPT and STYLE", head(`<SCRIPT>var a = 1;</SCRIPT><STYLE>p { margin: 0 }</STYLE><meta charset="koi8-r">`) + mustEncode(t, charmap.KOI8R, "<body><p>"+ru+"</p></body>"), "", "", "koi8-r", SourceMeta},
		{"detected after an upper-case STYLE", head(`<STYLE>p { margin: 0 }</STYLE>`) + body1251, "", "", "windows-1251", SourceDetected},
		{"quoted > before charset", head(`<meta name="a>b" content="x>y" charset="windows-1251">`) + body1251, "", "", "windows-1251", SourceMeta},
		{"unknown label, then a known one", head(`<meta charset="nonsense"><meta charset="windows-1251">`) + body1251, "", "", "windows-1251", SourceMeta},
		{"replacement label is ignored", head(`<meta charset="iso-2022-kr">`) + body1251, "", "", "windows-1251", SourceDetected},
		{"meta after </head> is ignored", head("") + `<meta charset="koi8-r">` + body1251, "", "", "windows-1251", SourceDetected},
		{"meta after <body is ignored", "<html><body><meta charset=\"koi8-r\"><p>" + ru1251 + "</p>", "", "", "windows-1251", SourceDetected},
		{"meta after 64 KB of head", head("<style>"+strings.Repeat("p { margin: 0 }\n", 5000)+`</style><meta charset="windows-1251">`) + body1251, "", "", "windows-1251", SourceMeta},
		{"meta beyond the scan limit", head(strings.Repeat(`<link rel="x" href="y">`, maxHeadScan/20)+`<meta charset="koi8-r">`) + body1251, "", "", "windows-1251", SourceDetected},
		{"meta utf-16 means utf-8", head(`<meta charset="utf-16">`) + "<p>plain</p>", "", "", "utf-8", SourceMeta},
		{"meta x-user-defined means windows-1252", head(`<meta charset="x-user-defined">`) + "<p>caf\xe9</p>", "", "", "windows-1252", SourceMeta},
		{"wrapper label is case- and space-insensitive", body1251, "", " WINDOWS-1251 ", "windows-1251", SourceWrapper},

		// Declarations checked against the bytes.
		{"meta utf-8 on windows-1251 bytes", head(`<meta charset="utf-8">`) + body1251, "", "", "windows-1251", SourceDetected},
		{"http utf-8 on windows-1251 bytes falls to meta", head(`<meta charset="windows-1251">`) + body1251, "text/html; charset=utf-8", "", "windows-1251", SourceMeta},
		{"meta utf-8 with one damaged byte", head(`<meta charset="utf-8">`) + bodyUTF8 + "\xFF", "", "", "utf-8", SourceMeta},
		{"meta iso-8859-1 on valid UTF-8", head(`<meta charset="iso-8859-1">`) + bodyUTF8, "", "", "utf-8", SourceUTF8},
		{"http iso-8859-1 on valid UTF-8, meta utf-8", head(`<meta charset="utf-8">`) + bodyUTF8, "text/html; charset=ISO-8859-1", "", "utf-8", SourceMeta},
		{"wrapper windows-1252 on valid UTF-8", bodyUTF8, "", "windows-1252", "utf-8", SourceUTF8},
		{"meta windows-1251 on ASCII", head(`<meta charset="windows-1251">`) + "<p>plain</p>", "", "", "windows-1251", SourceMeta},
		{"http iso-8859-1 maps to windows-1252", "<p>caf\xe9</p>", "text/html; charset=iso-8859-1", "", "windows-1252", SourceHTTP},
		{"http us-ascii maps to windows-1252", "<p>plain</p>", "text/html; charset=us-ascii", "", "windows-1252", SourceHTTP},
		{"http utf-16 on ASCII bytes", "<p>plain</p>", "text/html; charset=utf-16", "", "utf-8", SourceUTF8},
		{"http utf-16le without BOM", string(utf16LE("<p>plain text</p>")), "text/html; charset=utf-16le", "", "utf-16le", SourceHTTP},
		{"http windows-1252 on utf-16be bytes", string(utf16BE("<p>plain text</p>")), "text/html; charset=windows-1252", "", "utf-16be", SourceDetected},
		{"http utf-16be on utf-16le bytes", string(utf16LE("<p>plain text</p>")), "text/html; charset=utf-16be", "", "utf-16le", SourceDetected},
		{"utf-16le without BOM or declaration", string(utf16LE("<p>Привет</p>")), "", "", "utf-16le", SourceDetected},
		{"utf-16be without BOM or declaration", string(utf16BE("<p>plain text</p>")), "", "", "utf-16be", SourceDetected},
		{"ASCII with a stray NUL", "<p>plain\x00 text</p>", "", "", "utf-8", SourceUTF8},

		// 5. to 7.
		{"utf-8 cut inside the last character", bodyUTF8 + "\xD0", "", "", "utf-8", SourceUTF8},
		{"mostly utf-8", bodyUTF8 + "\x92" + bodyUTF8, "", "", "utf-8", SourceDetected},
		{"too little text to tell", "<p>\xa9 2007</p>", "", "", "windows-1252", SourceDefault},
		{"a single high byte in English", "<p>Copyright \xa9 2007 Example Inc. All rights reserved.</p>", "", "", "windows-1252", SourceDetected},
		{"koi8-r undeclared", "<p>" + ruKOI8 + "</p>", "", "", "koi8-r", SourceDetected},
		{"utf-8 quotes in a windows-1252 page", "<p>Caf\xe9 \x96 the \xe2\x80\x9cbest\xe2\x80\x9d in town, and the \xe2\x80\x9ccheapest\xe2\x80\x9d, they say; we\x92ll see.</p>", "", "", "windows-1252", SourceDetected},
		{"windows-1251 undeclared", "<p>" + ru1251 + "</p>", "", "", "windows-1251", SourceDetected},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := DetectCharset([]byte(tc.b), tc.ct, tc.wrapper)
			if c.Name != tc.want || c.Source != tc.source {
				t.Errorf("DetectCharset = %s (%s), want %s (%s)", c.Name, c.Source, tc.want, tc.source)
			}
			if out, _ := c.Decode([]byte(tc.b)); !utf8.Valid(out) {
				t.Errorf("Decode output is not valid UTF-8")
			}
		})
	}
}

func TestDecode(t *testing.T) {
	emoji := mustEncode(t, simplifiedchinese.GB18030, "😀")
	tests := []struct {
		name string
		c    Charset
		b    string
		want string
	}{
		{"windows-1252 C1 range", Charset{Name: "windows-1252"}, "caf\xe9 \x80 \x93x\x94 \x9c", "café € “x” œ"},
		{"iso-8859-1 label decodes as windows-1252", Charset{Name: "iso-8859-1"}, "\x80", "€"},
		{"windows-1251", Charset{Name: "windows-1251"}, "\xcf\xf0\xe8\xe2\xe5\xf2", "Привет"},
		{"koi8-r", Charset{Name: "KOI8-R"}, "\xf0\xd2\xc9\xd7\xc5\xd4", "Привет"},
		{"shift_jis", Charset{Name: "shift_jis"}, "\x93\xfa\x96\x7b", "日本"},
		{"shift_jis cut short", Charset{Name: "sjis"}, "a\x93", "a\uFFFD"},
		{"euc-kr", Charset{Name: "euc-kr"}, "\xc7\xd1\xb1\xb9", "한국"},
		{"gbk", Charset{Name: "gb2312"}, "\xd6\xd0\xce\xc4", "中文"},
		{"gbk label decodes gb18030 sequences", Charset{Name: "gbk"}, emoji, "😀"},
		{"big5", Charset{Name: "big5"}, "\xa4\xa4\xa4\xe5", "中文"},
		{"iso-2022-jp", Charset{Name: "iso-2022-jp"}, "a\x1b$BF|K\\\x1b(Bb", "a日本b"},
		{"utf-16le", Charset{Name: "utf-16le"}, "h\x00i\x00", "hi"},
		{"utf-16be with BOM", Charset{Name: "utf-16be"}, "\xfe\xff\x00h\x00i", "hi"},
		{"utf-16le odd byte", Charset{Name: "utf-16le"}, "h\x00i", "h\uFFFD"},
		{"utf-8 invalid bytes", Charset{Name: "utf-8"}, "a\xffb\xe2\x82", "a\uFFFDb\uFFFD\uFFFD"},
		{"utf-8 BOM is dropped", Charset{Name: "utf-8"}, "\xef\xbb\xbfhi", "hi"},
		{"zero Charset is utf-8", Charset{}, "a\xffb", "a\uFFFDb"},
		{"unknown name is utf-8", Charset{Name: "bogus"}, "déjà", "déjà"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := tc.c.Decode([]byte(tc.b))
			if string(out) != tc.want {
				t.Errorf("Decode(%q) = %q, want %q", tc.b, out, tc.want)
			}
		})
	}
}

// commonPage is a UTF-8 page with a meta declaration, the common case.
func commonPage() []byte {
	paras := append(append([]string{}, frenchText...), russianText...)
	for i := 0; i < 4; i++ {
		paras = append(paras, paras...)
	}
	return []byte(buildPage(`<meta charset="utf-8">`+"\n", frenchTitle, paras))
}

// TestDetectDecodeCommonCaseAllocs checks that UTF-8 input costs no
// allocation and no copy, with or without declarations.
func TestDetectDecodeCommonCaseAllocs(t *testing.T) {
	b := commonPage()
	for _, tc := range []struct{ ct, wrapper string }{
		{"", ""}, {"text/html; charset=UTF-8", ""}, {"", "utf8"}, {"", "unset"},
	} {
		var out []byte
		var m *OffsetMap
		allocs := testing.AllocsPerRun(50, func() {
			out, m = DetectCharset(b, tc.ct, tc.wrapper).Decode(b)
		})
		if allocs != 0 {
			t.Errorf("ct=%q wrapper=%q: %v allocations, want 0", tc.ct, tc.wrapper, allocs)
		}
		if m != nil || &out[0] != &b[0] || len(out) != len(b) {
			t.Errorf("ct=%q wrapper=%q: the output is not the input", tc.ct, tc.wrapper)
		}
	}
}

func BenchmarkDetectDecode(b *testing.B) {
	utf8Page := commonPage()
	asciiPage := []byte(buildPage("", "Plain", []string{strings.Repeat("Plain ASCII text, nothing else. ", 2000)}))
	enc := func(e encoding.Encoding, s []byte) []byte {
		out, err := e.NewEncoder().Bytes(s)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	ruPage := []byte(buildPage(`<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">`+"\n", russianTitle,
		slicesRepeat(russianText, 16)))
	jaPage := []byte(buildPage("", japaneseTitle, slicesRepeat(japaneseText, 16)))
	cases := []struct {
		name string
		page []byte
		ct   string
	}{
		{"utf-8", utf8Page, ""},
		{"ascii", asciiPage, ""},
		{"windows-1251-meta", enc(charmap.Windows1251, ruPage), ""},
		{"shift_jis-http", enc(japanese.ShiftJIS, jaPage), "text/html; charset=Shift_JIS"},
		{"shift_jis-detected", enc(japanese.ShiftJIS, jaPage), ""},
		{"windows-1251-detected", enc(charmap.Windows1251, []byte(buildPage("", russianTitle, slicesRepeat(russianText, 16)))), ""},
		{"windows-1252-detected", enc(charmap.Windows1252, []byte(buildPage("", germanTitle, slicesRepeat(germanText, 16)))), ""},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.page)))
			b.ReportAllocs()
			for b.Loop() {
				out, m := DetectCharset(tc.page, tc.ct, "").Decode(tc.page)
				_ = m.Original(len(out) / 2)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

func slicesRepeat(s []string, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, s...)
	}
	return out
}

// TestRealPagesDecodeCleanly decodes the CleanEval pages of ../shared/data,
// when present: none may come out with U+FFFD (their bytes are all valid in
// the charset they are in, whatever their labels say).
func TestRealPagesDecodeCleanly(t *testing.T) {
	var files []string
	for _, dir := range []string{"cleaneval-dev", "cleanportaleval"} {
		f, _ := filepath.Glob(filepath.Join("..", "..", "shared", "data", dir, "html", "*.html"))
		files = append(files, f...)
	}
	if len(files) == 0 {
		t.Skip("../shared/data is absent")
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		wrapper := ""
		if i := bytes.Index(b[:min(len(b), 4096)], []byte(` encoding="`)); i >= 0 {
			v := b[i+len(` encoding="`):]
			if j := bytes.IndexByte(v, '"'); j >= 0 {
				wrapper = string(v[:j])
			}
		}
		c := DetectCharset(b, "", wrapper)
		out, _ := c.Decode(b)
		if n := bytes.Count(out, []byte("\uFFFD")); n > 0 || !utf8.Valid(out) {
			t.Errorf("%s: decoded as %s (%s) with %d U+FFFD", filepath.Base(file), c.Name, c.Source, n)
		}
	}
}

package charsetguess

import (
	"bytes"
	"flag"
	"os"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
)

var updateTables = flag.Bool("update-tables", false, "rewrite multibyte.bin from the decoders")

// TestMultiByteTables builds the multi-byte candidates' tables from their
// decoders and checks them against the embedded ones (multibyte.go), or
// with -update-tables rewrites multibyte.bin.
func TestMultiByteTables(t *testing.T) {
	var all []byte
	for _, name := range multiByteNames {
		all = append(all, newMultiByte(name).encode()...)
	}
	if *updateTables {
		if err := os.WriteFile("multibyte.bin", all, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("multibyte.bin rewritten; run the test again (the embedded copy is the old one until the package is rebuilt)")
	}
	if !bytes.Equal(all, multiByteData) {
		t.Fatalf("multibyte.bin (%d bytes) is not what the decoders give (%d bytes): rebuild it with go test ./charsetguess -run TestMultiByteTables -update-tables", len(multiByteData), len(all))
	}
	for _, name := range multiByteNames {
		if got, want := loadMultiByte(name), newMultiByte(name); !bytes.Equal(got.one, want.one) || !bytes.Equal(got.pairs, want.pairs) || got.kind != want.kind {
			t.Errorf("%s: the embedded tables load differently from the built ones", name)
		}
	}
	for _, c := range candidates {
		enc, err := htmlindex.Get(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, single := enc.(interface{ DecodeByte(byte) rune }); !single && !slices.Contains(multiByteNames, c.name) {
			t.Errorf("candidate %s is multi-byte but has no embedded tables", c.name)
		}
	}
}

// Frequent characters by language: a text's share of them tells its
// language's encodings from the others that decode it without error.
const (
	topChinese     = "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站严巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值仍男钱破网热助倒育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤素药适波夜省初喜卫源食险待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担州静退既衣您宗积余痛检差富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控税左右份穿艺背阵草脚概恶块顿敢守酒岛托央户烈洋哥索胡款靠评版宝座释景顾弟登货互付伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮露永呼味野架域沙掉括舰鱼杂误湾吉减编楚肯测败屋跑梦散温困剑渐封救贵枪缺楼县尚毫移娘朋画班智亦耳恩短掌恐遗固席松秘谢鲁遇康虑幸均销钟诗藏赶剧票损忽巨炮旧端探湖录叶春乡附吸予礼港雨呀板庭妇归睛饭额含顺输摇招婚脱补谓督毒油疗旅泽材灭逐莫笔亡鲜词圣择寻厂睡博勒烟授诺伦岸奥唐卖俄炸载洛健堂旁宫喝借君禁阴园谋宋避抓荣姑孙逃牙束跳顶玉镇雪午练迫爷篇肉嘴馆遍凡础洞卷坦牛宁纸诸训私庄祖丝翻暴森塔默握戏隐熟骨访弱蒙歌店鬼软典欲萨伙遭盘爸扩盖弄雄稳忘亿刺拥徒姆杨齐赛趣曲刀床迎冰虚玩析窗醒妻透购替塞努休虎扬途侵刑绿兄迅套贸毕唯谷轮库迹尤竞街促延震弃甲伟麻川申缓潜闪售灯针哲络抵朱埃抱鼓植纯夏忍页杰筑折郑贝尊吴秀混臣雅振染盛怒舞圆搞狂措姓残秋培迷诚宽宇猛摆梅毁伸摩盟末乃悲拍丁赵侧醉泪劲苍"
	topTraditional = "的一是不了在人有我他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下自之年過發後作裡用道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部其些主樣理心她本前開但因只從想實日軍者意無力它與長把機十民第公此已工使情明性知全三又關點正業外將兩高間由問很最重並物手應戰向頭文體政美相見被利什二等產或新己制身果加西斯月話合回特代內信表化老給世位次度門任常先海通教兒原東聲提立及比員解水名真論處走義各入幾口認條平系氣題活爾更別打女變四神總何電數安少報才結反受目太量再感建務做接必場件計管期市直德資命山金指克許統區保至隊形社便空決治展馬科司五基眼書非則聽白卻界達光放強即像難且權思王象完設式色路記南品住告類求據程北邊死張該交規萬取拉格望覺術領共確傳師觀清今切院讓識候帶導爭運笑飛風步改收根乾造言聯持組每濟車親極林服快辦議往元英士證近失轉夫令準布始怎呢存未遠叫台單影具羅字愛擊流備兵連調深商算質團集百需價花黨華城石級整府離況亞請技際約示復病息究線似官火斷精滿支視消越器容照須九增研寫稱企八功嗎包片史委乎查輕易早曾除農找裝廣顯吧阿李標談吃圖念六引歷首醫局突專費號盡另周較注語僅考落青隨選列武紅響雖推勢參希古眾構房半節土投某案黑維革劃敵致陳律足態護七興派孩驗責營星夠章音跟志底站嚴巴例防族供效續施留講型料終答緊黃絕奇察母京段依批群項故按河米圍江織害鬥雙境客紀採舉殺攻父蘇密低朝友訴止細願千值仍男錢破網熱助倒育屬坐帝限船臉職速刻樂否剛威毛狀率甚獨球般普怕彈校苦創假久錯承印晚蘭試股拿腦預誰益陽若哪微尼繼送急血驚傷素藥適波夜省初喜衛源食險待述陸習置居勞財環排福納歡雷警獲模充負雲停木遊龍樹疑層冷洲衝射略範竟句室異激漢村哈策演簡卡罪判擔州靜退既衣您宗積餘痛檢差富靈協角占配征修皮揮勝降階審沉堅善媽劉讀啊超免壓銀買皇養伊懷執副亂抗犯追幫宣佛歲航優怪香著田鐵控稅左右份穿藝背陣草腳概惡塊頓敢守酒島託央戶烈洋哥索胡款靠評版寶座釋景顧弟登貨互付伯慢歐換聞危忙核暗姐介壞討麗良序升監臨亮露永呼味野架域沙掉括艦魚雜誤灣吉減編楚肯測敗屋跑夢散溫困劍漸封救貴槍缺樓縣尚毫移娘朋畫班智亦耳恩短掌恐遺固席松秘謝魯遇康慮幸均銷鐘詩藏趕劇票損忽巨炮舊端探湖錄葉春鄉附吸予禮港雨呀板庭婦歸睛飯額含順輸搖招婚脫補謂督毒油療旅澤材滅逐莫筆亡鮮詞聖擇尋廠睡博勒煙授諾倫岸奧唐賣俄炸載洛健堂旁宮喝借君禁陰園謀宋避抓榮姑孫逃牙束跳頂玉鎮雪午練迫爺篇肉嘴館遍凡礎洞卷坦牛寧紙諸訓私莊祖絲翻暴森塔默握戲隱熟骨訪弱蒙歌店鬼軟典欲薩夥遭盤爸擴蓋弄雄穩忘億刺擁徒姆楊齊賽趣曲刀床迎冰虛玩析窗醒妻透購替塞努休虎揚途侵刑綠兄迅套貿畢唯谷輪庫跡尤競街促延震棄甲偉麻川申緩潛閃售燈針哲絡抵朱埃抱鼓植純夏忍頁傑築折鄭貝尊吳秀混臣雅振染盛怒舞圓搞狂措姓殘秋培迷誠寬宇猛擺梅毀伸摩盟末乃悲拍丁趙側醉淚勁蒼"
	topKorean      = "이다는의에을하고가로지서한기를리사도어나으일자수대인아시있니해게정전요보주적들과은상세원부만것제면소라우구문없그내경성여며동장공방국중조계무마연비분회관생신개러실발학선위모히했되불결터행것저치유화교용물속명각"
	topJapanese    = "日本人中大年一出十上国会時行事自分生見的言前後手今方同新気思私何彼者"
)

// newMultiByte builds the class tables of a CJK encoding by decoding every
// byte and pair through the encoding's decoder.
func newMultiByte(name string) *multiByte {
	enc, err := htmlindex.Get(name)
	if err != nil {
		panic(err)
	}
	dec := enc.NewDecoder()
	e := &multiByte{kind: name, one: make([]uint8, 128), pairs: make([]uint8, 128*192)}
	var top string
	switch name {
	case "gb18030":
		top = topChinese
	case "big5":
		top = topTraditional
	case "euc-kr":
		top = topKorean
	default:
		top = topJapanese
	}
	frequent := make(map[rune]bool)
	for _, r := range top {
		frequent[r] = true
	}
	var buf [16]byte
	decode := func(b []byte) (rune, bool) {
		dec.Reset()
		n, _, err := dec.Transform(buf[:], b, true)
		if err != nil {
			return 0, false
		}
		r, size := utf8.DecodeRune(buf[:n])
		if r == utf8.RuneError || size != n {
			return 0, false
		}
		return r, true
	}
	for l := range 128 {
		r, ok := decode([]byte{byte(0x80 + l)})
		if !ok {
			e.one[l] = mbInvalid
		} else {
			e.one[l] = classifyCJK(name, r, byte(0x80+l), 0)
		}
	}
	for l := range 128 {
		if e.one[l] != mbInvalid {
			continue
		}
		for t := range 192 {
			lead, trail := byte(0x80+l), byte(0x40+t)
			r, ok := decode([]byte{lead, trail})
			p := &e.pairs[l*192+t]
			if !ok {
				*p = mbInvalid
				continue
			}
			*p = classifyCJK(name, r, lead, trail)
			frequent := frequent[r]
			if 0x3040 <= r && r <= 0x30FF {
				frequent = name == "shift_jis" || name == "euc-jp"
			}
			if frequent {
				*p |= topBit
			}
		}
	}
	return e
}

// classifyCJK classes character r, encoded as lead and trail (0 for a
// single byte), in CJK encoding name.
func classifyCJK(name string, r rune, lead, trail byte) uint8 {
	japanese := name == "shift_jis" || name == "euc-jp"
	korean := name == "euc-kr"
	switch {
	case 0xE000 <= r && r <= 0xF8FF, r < 0x20, 0x7F <= r && r < 0xA0:
		return mbInvalid
	case unicode.Is(unicode.Han, r):
		if korean {
			return mbOdd // Hanja: real, but seldom in modern Korean
		}
		if firstPlane(name, lead, trail) {
			return mbHan
		}
		return mbOdd
	case 0x3040 <= r && r <= 0x30FF: // hiragana, katakana, the prolonged sound mark
		if japanese {
			return mbCommon
		}
		return mbRare
	case 0xFF61 <= r && r <= 0xFF9F: // half-width katakana
		if japanese {
			return mbOdd
		}
		return mbRare
	case 0xAC00 <= r && r <= 0xD7A3: // Hangul syllables
		if korean && lead >= 0xB0 && lead <= 0xC8 && trail >= 0xA1 {
			return mbCommon
		}
		if korean {
			return mbOdd
		}
		return mbRare
	case 0x3000 <= r && r <= 0x303F, 0xFF01 <= r && r <= 0xFF5E, r == 0x00B7, r == 0x2014, r == 0x2015,
		r == 0x2018, r == 0x2019, r == 0x201C, r == 0x201D, r == 0x2026, r == 0x20AC, r == 0x2025, r == 0x30FB:
		return mbCommon // CJK punctuation, full-width ASCII
	}
	return mbRare
}

// firstPlane reports whether a Han character's bytes lie in its encoding's
// first plane, the more common characters: GB 2312 level 1, Big5's
// frequent characters, JIS X 0208 level 1.
func firstPlane(name string, lead, trail byte) bool {
	code := uint16(lead)<<8 | uint16(trail)
	switch name {
	case "gb18030":
		return 0xB0 <= lead && lead <= 0xD7 && trail >= 0xA1
	case "big5":
		return 0xA440 <= code && code <= 0xC67E
	case "shift_jis":
		return 0x889F <= code && code <= 0x9872
	case "euc-jp":
		return 0xB0 <= lead && lead <= 0xCF && trail >= 0xA1
	}
	return false
}

// encode writes e's tables as the embedded file holds them.
func (e *multiByte) encode() []byte { return append(slices.Clip(e.one), e.pairs...) }

"""Street addresses, English and Chinese: Presidio's NER finds cities, not where someone lives.

An English address needs a house number and either a street suffix or a `City, ST 12345` tail;
a Chinese one needs a province-level or city prefix and a street (路/街/道…), so `市场部讨论路线` never fires;
a European one is a street, a house number, a postcode and a town (`Oudegracht 214-B, 3511 NR Utrecht`), or a
house number and a street named after its kind (`12 Rue de Rivoli`, `5 Avenue Foch`, `Via Roma 10`).
"""

from __future__ import annotations

from ec2audit.annotate.recognizers.base import PatternRecognizer

_SUFFIX = (r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace"
           r"|Parkway|Pkwy|Circle|Cir|Highway|Hwy|Square|Sq|Trail|Plaza)")
#: Words that make a name a street (`Rue de Rivoli` is no one's name), in the languages our users write in.
STREET_WORDS = (r"(?:Rue|Avenue|Av\.|Boulevard|Bd|Place|Quai|All[ée]e|Impasse|Chemin|Cours|Route|Via|Viale|Piazza"
                r"|Corso|Calle|Avenida|Plaza|Paseo|Carrer|Rua|Stra(?:ß|ss)e|Weg|Platz|Gasse|Street|Road|Lane|Drive)")
_PARTICLE = r"(?: (?:de la|de l'|du|des|de|d'|del|della|di|do|da|dos|la|le|les|am|an der|im|of|the))?"
_UNIT = r"(?:,? (?:Apt\.?|Suite|Unit|Ste\.?|#) ?[\dA-Z]+)?"
#: A floor and door after the house number (`112, 3º B`, `10, int. 4`) and a postcode and town (`, 28012 Madrid`).
_FLOOR = r"(?:,? (?:\d{1,2} ?[ºª°]|piso \d{1,2}|int\. ?\d{1,3})(?: ?[A-Z]\b)?)?"
_POSTCODE_TOWN = r"(?:,? \d{4,5} [A-ZÀ-Þ][a-zà-ÿ]+(?:[ -][A-ZÀ-Þ][a-zà-ÿ]+)?\b)?"
_CITY_TAIL = r",? (?:[A-Z][a-z]+ ){0,2}[A-Z][a-z]+, [A-Z]{2} \d{5}(?:-\d{4})?"
#: China's provinces, autonomous regions, SARs and municipalities by name: any two to six characters before 省
#: took the words before the address with it (`他住在广东省…`, `公司位于浙江省…`). A municipality is written without its
#: 市 before a district as often as with it (`北京朝阳区建国路88号`).
_PROVINCE = (r"(?:(?:河北|山西|辽宁|吉林|黑龙江|江苏|浙江|安徽|福建|江西|山东|河南|湖北|湖南|广东|海南"
             r"|四川|贵州|云南|陕西|甘肃|青海|台湾)省|(?:内蒙古|广西(?:壮族)?|西藏|宁夏(?:回族)?|新疆(?:维吾尔)?)自治区|(?:香港|澳门)特别行政区"
             r"|(?:北京|上海|天津|重庆)(?:市|(?=[\u4e00-\u9fff]{1,5}?[区县])))")
_CITY = r"(?:[\u4e00-\u9fff]{2,3}?市)"
_CN_ADDRESS = (
    rf"(?:{_PROVINCE}|(?<![\u4e00-\u9fff])(?![在于住到寄])(?:{_CITY})|(?<=[在于住址：:])(?![在于住到寄])[\u4e00-\u9fff]{{2,3}}?市)(?:[\u4e00-\u9fff]{{1,6}}?(?:市|县|区|州|盟))*[\u4e00-\u9fff]{{0,8}}?"
    # the numbers are written with spaces around them too (`漕溪北路 88 号 3 楼`)
    r"(?:路|街|大道|道|巷|胡同|弄)(?: ?[0-9一二三四五六七八九十百]+ ?号)?"
    # a building's name in words apart (`SOHO 现代城 5 号楼 1203 室`)
    r"(?:(?:(?: ?[\u4e00-\u9fffA-Za-z0-9]{1,8}?){1,3} ?)?(?:座|栋|幢|号楼|楼|单元|室))*(?: ?\d{6}(?!\d))?"
)

RECOGNIZERS = [
    PatternRecognizer("street-address-en", "STREET_ADDRESS", "location", (
        (rf"\b\d{{1,6}}(?: [A-Z][a-z]+){{1,4}}{_UNIT}{_CITY_TAIL}\b", 0.8),
        (rf"\b\d{{1,6}}(?: [A-Z][a-z]+){{1,3}} {_SUFFIX}\b\.?{_UNIT}(?:{_CITY_TAIL}\b)?", 0.7),
    )),
    PatternRecognizer("street-address-eu", "STREET_ADDRESS", "location", (
        (r"\b[A-Z][a-zà-ÿ]+(?:[ -][A-Za-zà-ÿ]+){0,3} \d{1,5}(?:[-/ ]?[A-Za-z]\b)?,? (?:\d{4} ?[A-Z]{2}|\d{5}|\d{4})"
         r" [A-Z][a-zà-ÿ]+(?:[ -][A-Z][a-zà-ÿ]+)?\b", 0.6),
    )),
    PatternRecognizer("street-address-kind-first", "STREET_ADDRESS", "location", (
        (rf"\b\d{{1,5}}(?: ?(?:bis|ter))?,? {STREET_WORDS}{_PARTICLE}(?: ?[A-ZÀ-Þ][\w'-]+){{1,3}}\b", 0.7),
        (rf"\b{STREET_WORDS}{_PARTICLE}(?: ?[A-ZÀ-Þ][\w'-]+){{1,3}},? \d{{1,5}}\b{_FLOOR}{_POSTCODE_TOWN}", 0.6),
    )),
    PatternRecognizer("street-address-zh", "STREET_ADDRESS", "location", (
        (_CN_ADDRESS, 0.8),
    )),
]

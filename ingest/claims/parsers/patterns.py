"""The words and patterns that claim extraction reads (``claim_text``): systems,
submitters, rounds, divisions, comparisons, qualifiers and quantities, English and
Chinese. Pure: no Django. Benchmark patterns and framework names are the shared
vocabulary (:mod:`benchdb.vocabulary`).
"""

from __future__ import annotations

import re

# --- vocabulary ------------------------------------------------------------------
# ASCII guards instead of \b: in Python a Han character is a word character, so
# "在IPU-POD16上" has no \b before "I".
EDGE_L = r"(?<![A-Za-z0-9])"
EDGE_R = r"(?![A-Za-z0-9])"

#: Models that are not MLPerf Training benchmarks (a claim about them is not-mlperf).
NON_MLPERF_MODELS = (
    r"EfficientNet(?:-B\d)?|ResNeXt|ViT"
    + EDGE_R
    + r"|GPT类|GPT類|GPT-class|LLaMA[ -]?V?\d(?:\.\d)?(?:\s*\d+[bB])?"
    r"|Llama\s*\d(?:\.\d)?\s*\d+[bB](?!\s*(?:LoRA|fine[- ]?tun))"
    r"|Mistral\s*\d+[bB]|BERT[- ]Base|Bert-Base|MCMC"
)
#: System mentions (case-insensitive).
SYSTEMS = (
    r"(?:IPU|Bow)[\s-]?POD\s?\d+|IPU[\s-]?M2000|Bow[\s-]?2000|M2000|GC200|DGX\s?SuperPOD"
    r"|DGX\s?[AH]100|HGX\s?H100|[AHV]100|GH200(?:-\d+G)?|GB[23]00|[BH][23]00|MI3\d\dX?"
    r"|TPU[\s-]?v\d(?:-\d+)?|"
    r"(?:HLS-)?Gaudi\s?\d(?![.\d])|Selene|SeleN"
    # Azure's GPU virtual machines as MLPerf names their systems ("ND_H100_v5 x1344",
    # "ND_H200_v5 x64"): the VM series, not the bare accelerator
    r"|NDm?\s?(?:A100|[HG]B?[12]00|MI300X)\s?v\d"
)
#: Submitter mentions -> canonical name.
SUBMITTERS = {
    "graphcore": "Graphcore",
    "nvidia": "NVIDIA",
    "英伟达": "NVIDIA",
    "英偉達": "NVIDIA",
    "google": "Google",
    "谷歌": "Google",
    "azure": "Azure",
    "微软云": "Azure",
    "微軟雲": "Azure",
    "microsoft": "Azure",
    "inspur": "Inspur",
    "浪潮": "Inspur",
    "baidu": "Baidu",
    "百度": "Baidu",
    "dell": "Dell",
    "戴尔": "Dell",
    "戴爾": "Dell",
    "intel": "Intel",
    "habana": "Intel",
}
ROUND_PATTERNS = (
    r"MLPerf(?:™|\*|TM|®)?\s*(?:Training|训练|訓練)?\s*(?:[vV]|version\s*)?(?P<r>\d\.\d)(?![\d.])",
    EDGE_L + r"[vV](?P<r>\d\.\d)(?![\d.])",
    r"Training\s+version\s+(?P<r>\d\.\d)(?![\d.])",
)
# A "v1.5" after a model or software name is that thing's version, not a round.
NOT_ROUND_BEFORE = re.compile(
    r"(?:ResNet[- ]?50|LLaMA|Llama|Diffusion|SDK|"
    r"Poplar|PyTorch|Ubuntu|software|Lightning|DeepSpeed)\W{0,3}$",
    re.I,
)
WORD_BEFORE = re.compile(r"([A-Za-z][\w*-]*)\.?\s*$")
ROUND_WORDS = frozenset(
    {
        "training",
        "benchmark",
        "round",
        "mlperf",
        "mlperftm",
        "vs",
        "versus",
        "and",
        "or",
        "to",
        "from",
        "since",
        "in",
        "of",
        "than",
        "with",
        "the",
        "over",
    }
)
BASELINE_BEFORE = re.compile(
    r"(?:vs\.?|versus|compared (?:to|with)|than|"
    r"since|相较于?|相較於?|相比于?|相比於?|与|與|对比|對比|自)[^,;。，]{0,10}$",
    re.I,
)
BASELINE_AFTER = re.compile(r"^\s*(?:相比|相較|相较|以来|以來)")
DIVISIONS = (
    (
        r"(?i:" + EDGE_L + r"closed(?=\s+(?:and\s+open\s+)?(?:division|"
        r"categor|submission|result))|ClosedDivision|"
        r"closed division)" + r"|封闭(?:分区|类别|任务)?|封閉(?:分區|類別|任務)?|固定任务|固定任務",
        "closed",
    ),
    (
        r"(?i:"
        + EDGE_L
        + r"open(?=\s+(?:and\s+closed\s+)?(?:division|categor|submission|result))|\(Open\))"
        + r"|(?:开放|開放)(?=(?:和|与|與|及)?(?:封闭|封閉)?(?:分区|分區|类别|類別|任务|任務|部分))",
        "open",
    ),
)
RESULT_ID = re.compile(r"(?<![\d.])(\d\.\d)-(\d{3,4})(?![\d])")
COMPARE = re.compile(
    r"(?i:"
    + EDGE_L
    + r"(?:vs\.?|versus|compared (?:to|with)|than|while|whereas|outperform\w*)"
    + EDGE_R
    + r")|而|相比|相较|相較|对比|對比|优于|優於|(?<![相对對])比(?!例)"
)
COMPARE_EN_BEFORE = re.compile(
    r"(?i:(?:vs\.?|versus|compared? (?:to|with)|"
    r"than|over)\s+(?:the\s+|a\s+|an\s+|nvidia'?s?\s+)?[^,;]{0,12})$|"
    r"(?:^|[^相对對])比\s*$"
)
# "達到 A100 的 18 倍" (reaches 18 times A100): the system before 的 N 倍 is the compared one.
COMPARE_ZH_AFTER = re.compile(r"^\s*的\s*\d[\d.]*\s*倍")
OTHER_PRODUCT = re.compile(r"(?i:first[- ]generation|previous generation)|第一代|上一代|前一代")
PARITY = re.compile(
    r"(?i:similar to|on par with|comparable (?:to|"
    r"with)|the same as|performs? like|match(?:es|"
    r"ed|ing)?" + EDGE_R + r")|相当|相當|持平|媲美|不相上下"
)
FIRST = re.compile(r"(?i:first (?:ever )?submission)|首次提交")
PREVIOUS = re.compile(
    r"(?i:(?:last|previous|prior) (?:MLPerf )?(?:training )?round)|上一轮|上一輪|上轮|上輪"
)
GAIN = re.compile(
    r"(?i:improve\w*|gain|faster|speed-?up|boost|increase\w*|better)|提升|提高|快|加速|改进|改進"
)
PER_ACCEL = re.compile(
    r"(?i:per[- ](?:accelerator|chip|gpu|ipu)|chip[- ]to[- ]chip)"
    r"|芯片对芯片|芯片對芯片|每(?:个|個)?芯片|单芯片|單芯片"
)
METRICS = (
    (re.compile(r"(?i:throughput|tokens?/s|samples?/s|images?/s)|吞吐量"), "throughput"),
    # "a 2,560-GPU run clocking 18.79 minutes" is a time, not a clock rate
    (re.compile(r"(?i:clock(?!ing|ed)|frequency)|主频|主頻"), "clock"),
    (re.compile(r"(?i:memory bandwidth)|内存带宽|記憶體頻寬"), "memory"),
    (re.compile(r"(?i:T?FLOPS)|算力"), "compute"),
    (
        # "169,600 tokens/dollar", "samples per $": a figure per dollar is a price
        re.compile(
            r"(?i:performance[- ]per[- ]dollar|price|cost"
            r"|(?:tokens?|samples?|quer(?:y|ies)|inferences?|images?)\s*(?:/|per)\s*(?:dollar|\$|USD))"
            r"|性价比|性價比"
        ),
        "cost",
    ),
)
#: A percentage that is a scaling efficiency ("90 percent scaling efficiency", "扩展效率
#: 93%", "效率达到93%" in a sentence about scaling): no speedup (kind ``scaling``).
SCALING_EFFICIENCY = re.compile(
    r"(?i:(?:strong|weak|linear)?[- ]?scaling\s+efficien\w*|efficiency\s+when\s+scaling)"
    r"|(?:扩展|擴展|扩容|擴容|线性|線性|集群|叢集)(?:的)?效率"
)
SCALING_SENTENCE = re.compile(r"(?i:scal(?:e|ing))|扩展|擴展|扩容|擴容")
CN_EFFICIENCY = re.compile(r"(?<!能)(?<!能源)效率")
#: A gain that is a geometric mean over several benchmarks (kind ``geomean``).
GEOMEAN = re.compile(r"(?i:geo-?mean|geometric(?:al)?\s+mean)|几何平均|幾何平均")
NOT_MLPERF = re.compile(
    r"(?i:not\s+(?:part of|an?|our|from)\s+(?:the\s+)?(?:\w+\s+){0,3}MLPerf)|"
    r"(?:并非|並非|不是)[^。]{0,20}MLPerf"
)
#: A measurement at batch size 1 ("batch=1", "batch size of 1", "Batch-1", "BS=1",
#: "批大小为1"): no MLPerf result states its batch size (``facts.BATCH_ONE``).
BATCH_ONE = re.compile(
    r"(?i:\bbatch(?:[- ]?size)?\s*(?:=|:|of)?\s*(?:1|one)(?!\d|[.,]\d)|\bBS\s*=\s*1(?!\d|[.,]\d))"
    r"|批(?:次)?大小\s*(?:为|為|=)?\s*1(?!\d|[.,]\d)"
)
UNVERIFIED = re.compile(
    r"(?i:improvements over the officially submitted|unverified|not verified by MLCommons)"
)

NUM = r"(?<![A-Za-z0-9_.\-/#$])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
ACCEL_AFTER_X = re.compile(
    r"\s*(?:(?:NVIDIA|Nvidia|AMD|Intel)\s+)?(?P<acc>[ABHLV]\d{2,3}S?|GB?[23]00|GPUs?|IPUs?|TPUs?"
    r"|HPUs?|Gaudi\s?\d|MI\d+X?)" + EDGE_R
)
QUANTITY = re.compile(
    NUM + r"(?P<mag>\s?[kKM](?=\s*(?:tokens?|samples?|queries|images?|inferences?|frames?|"
    r"FPS|IPS|QPS)" + EDGE_R + r"))?\s*(?:"
    r"(?P<thr>(?:(?:server|offline)\s+)?(?:tokens?|samples?|images?|sequences?|quer(?:y|ies)|"
    r"inferences?|frames?)\s*(?:/|\s+per\s+)\s*(?:s(?:ec(?:ond)?)?|watt|W|joule)(?:\s*/\s*W)?"
    r"|FPS|IPS(?:\s*/\s*W)?|QPS)" + EDGE_R + "|"
    r"(?P<time>minutes?|mins?|seconds?|secs?|hours?|hrs?|days?|[smh])(?![A-Za-z0-9])|"
    r"(?P<ztime>分钟|分鐘|秒钟|秒鐘|秒|小时|小時|天)|"
    r"(?P<pct>%|percent" + EDGE_R + r"|per cent" + EDGE_R + r")|"
    # "2.7x1": a footnote digit after a decimal multiplier
    r"(?P<mult>[xX×](?:(?![A-Za-z0-9])|(?<=\.\d[xX×])(?=\d(?![\w.,])))|times"
    + EDGE_R
    + r"|-?fold"
    + EDGE_R
    + r"|倍)|"
    r"(?P<scale>GPUs?|IPUs?|TPUs?|HPUs?|chips?|accelerators?|nodes?|cards?)" + EDGE_R + "|"
    r"(?P<zscale>(?:个|個)\s*(?:IPU|GPU|TPU|芯片|加速器|节点|節點)|颗|顆|张|張)|"
    r"(?P<zsys>(?:个|個|台)\s*(?P<sysname>[A-Za-z0-9\- ]{0,24}?)\s*(?:系统|系統|服务器|服務器))|"
    r"(?P<spec>TFLOPS|TFlops|PFLOPS|PFlops|TOPS|GB/s|GB|MB|TB|GHz|MHz|nm)(?![A-Za-z])|"
    r"(?P<zcount>(?:项|項|个|個|家|类|類)[^,，。;；]{0,12}?(?P<zwhat>冠军|冠軍|任务|任務|成绩|成績|公司|厂商|廠商))|"
    r"(?P<count>(?i:other\s+)?(?P<what>(?i:wins?|"
    r"first places?|world records?|records|members|"
    r"submissions|results|companies|organizations|"
    r"(?:hardware\s+)?manufacturers))" + EDGE_R + "))"
)
TIME_UNITS = {
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "m": "min",
    "s": "s",
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "分钟": "min",
    "分鐘": "min",
    "秒钟": "s",
    "秒鐘": "s",
    "秒": "s",
    "小时": "h",
    "小時": "h",
    # days: a full training run (or an extrapolation to one), never an MLPerf time
    # to train; kept only in a sentence about training (quantities.find_quantities)
    "day": "d",
    "days": "d",
    "天": "d",
}
#: A sentence about training, where a time in days is a claim ("trains GPT-3 in 8 days").
TRAINING_WORDS = re.compile(r"(?i:\btrain\w*)|训练|訓練")
#: The metric of a time in days (not an MLPerf metric: benchdb.claims.facts.SUITES).
DAYS_METRIC = "days of training"
Q_BEFORE = re.compile(
    r"(?i:(?P<en>just over|just under|up to|nearly|almost|about|around|approximately|roughly|~|"
    r"within|more than|upwards of|in excess of|over|under|less than|at least|as much as|as many as"
    r"|only|just)(?:\s+|(?<=~))"
    r"(?:(?:a|an|the)\s+)?)$"
    r"|(?P<zh>多达|多達|将近|將近|接近|近|逾|超过|超過|高达|高達|最高|约|約|大约|大約|至少|不到)\s*"
    r"(?:提升了?|提高了?|达到|達到|可达|可達|达|達|快了?|加速|为|為)?\s*$"
)
Q_AFTER = re.compile(r"^\s*(?P<zh>以上|左右|多|余|餘)")
QUALIFIERS = {
    "up to": "up to",
    "as much as": "up to",
    "as many as": "up to",
    "多达": "up to",
    "多達": "up to",
    "最高": "up to",
    "高达": "up to",
    "高達": "up to",
    "nearly": "nearly",
    "almost": "nearly",
    "近": "nearly",
    "将近": "nearly",
    "將近": "nearly",
    "接近": "nearly",
    "about": "about",
    "around": "about",
    "approximately": "about",
    "roughly": "about",
    "~": "about",
    "约": "about",
    "約": "about",
    "大约": "about",
    "大約": "about",
    "左右": "about",
    "more than": "more than",
    "over": "more than",
    "upwards of": "more than",
    "in excess of": "more than",
    "逾": "more than",
    "超过": "more than",
    "超過": "more than",
    "以上": "more than",
    "多": "more than",
    "余": "more than",
    "餘": "more than",
    "at least": "at least",
    "至少": "at least",
    "just over": "just over",
    "less than": "less than",
    "under": "less than",
    "不到": "less than",
    "just under": "less than",
    "within": "less than",
    "only": "only",
    "just": "only",
}
CLAUSE = re.compile(
    r"[,，;；:：、]|\s[–—-]\s|" + EDGE_L + r"(?:and|while|whereas)" + EDGE_R + r"|而|以及"
)
SENTENCE_END = re.compile(r"[。！？]+|[.!?](?=\s|$)")
# An initial is one capital letter after a non-letter ("A. Smith"); inside (?i:) [A-Z]
# would take any letter, so no English sentence would end at a full stop.
ABBREV = re.compile(
    r"(?:(?<![A-Za-z])(?i:vs|e\.g|i\.e|etc|no|fig|approx|inc|mr|dr|u\.s)|(?<![A-Za-z])[A-Z])$"
)
GLOSS = re.compile(r"(?<=[\u3400-\u9fff])\([a-zü]*[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ][a-zü]*\)")
FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
SHARED_UNIT = re.compile(
    NUM + r"(?=\s*(?:vs\.?|versus|compared (?:to|with)|"
    r"against|对|對|比)\s*\d[\d,.]*\s*(?P<unit>minutes?|"
    r"mins?|seconds?|hours?|分钟|分鐘|秒|小时|小時)(?![A-Za-z]))",
    re.I,
)
#: Ranges: "2-3x", "2–3 倍", "2 to 3 times", "20~30%": a gain between two figures.
RANGE = re.compile(  # "94% to 105%", "2x-3x": the unit may follow both figures
    NUM + r"\s*(?:%|percent\s|[xX×]\s?|倍)?\s*(?:-|–|~|～|to|至|到)\s*(?P<high>\d+(?:\.\d+)?)\s*"
    r"(?P<unit>[xX×](?![A-Za-z0-9])|times" + EDGE_R + r"|倍|%|percent" + EDGE_R + ")"
)
#: Ranges whose ends are written apart: "between 1.8x and 4.5x", "from as little as 7%
#: to as much as 54%", "少则1.8倍,多则可达4.5倍" (the low end, then the high end with the
#: same unit; words such as "可达", "接近" may stand before the high end).
SPLIT_RANGES = (
    re.compile(
        r"(?i:between|from)\s+(?:(?i:as\s+(?:little|low)\s+as)\s+)?"
        + NUM
        + r"\s*(?P<u1>[xX×](?![A-Za-z0-9])|%|times"
        + EDGE_R
        + r")?\s*(?i:and|to)\s+"
        r"(?:(?i:as\s+(?:much|high)\s+as|up\s+to)\s+)?(?P<high>\d+(?:\.\d+)?)\s*"
        r"(?P<unit>[xX×](?![A-Za-z0-9])|times" + EDGE_R + r"|%)"
    ),
    re.compile(
        r"(?:少则|最少|最低|低则|低至)(?:也)?(?:提升|提高|增加|增长|加快)?了?(?:超过|接近|约|有|达)?\s*"
        + NUM
        + r"\s*(?P<u1>倍|%)[^。;；\d]{0,12}?(?:多则|最多|最高|高则|高至)(?:也)?(?:能|可)?"
        r"(?:提升|提高|增加|增长|加快)?了?"
        r"(?:达到|达|接近|超过|高达|有|到)?\s*(?P<high>\d+(?:\.\d+)?)\s*(?P<unit>倍|%)"
    ),
)
#: Gains written in words: "一倍多" after a verb (缩短了一倍多: more than halved, a 2x
#: speedup; 提高了一倍: doubled), "halved", "doubled", "tripled", "twice as fast".
#: Words after "double", "doubled", "triple"... that make an idiom, not a gain:
#: "double down on", "doubled down", "double-digit growth", "double-precision",
#: "triple-check" (a lookahead to put after the word).
NOT_A_GAIN_AFTER = (
    r"(?![- ]+(?i:down|digits?|precision|edged|click\w*|check\w*|dip\w*|duty|whammy|standard"
    r"|bind|header|entendre|data[- ]rate|sided|decker)(?![A-Za-z]))"
)
FRACTION = re.compile(
    r"(?:缩短|縮短|减少|減少|降低|提升|提高|加快|增加|增长|增長)了?\s*(?P<one>一倍)(?P<more>多|以上)?"
    r"|(?P<zh2>减半|減半|翻倍|翻番|翻了一番|翻一番|翻了两番|翻了兩番|翻两番|翻兩番)"
    r"|(?i:(?P<en>halved|cut\s+in\s+half|by\s+half|doubled|tripled|quadrupled|twice\s+as\s+fast))"
    + NOT_A_GAIN_AFTER
)
FRACTION_VALUES = {
    "一倍": 2.0,
    "减半": 2.0,
    "減半": 2.0,
    "翻倍": 2.0,
    "翻番": 2.0,
    "翻了一番": 2.0,
    "翻一番": 2.0,
    "翻了两番": 4.0,
    "翻了兩番": 4.0,
    "翻两番": 4.0,
    "翻兩番": 4.0,
    "halved": 2.0,
    "cut in half": 2.0,
    "by half": 2.0,
    "doubled": 2.0,
    "twice as fast": 2.0,
    "tripled": 3.0,
    "quadrupled": 4.0,
}
#: A negation that governs the number after it ("不能說 100% 超越", "not 2x"): the
#: statement is not a claim the page makes.
NEGATION = re.compile(
    r"(?:不能说|不能說|不能讲|不能講|并非|並非|不是|没有|沒有|未能|"
    r"(?i:(?<![A-Za-z])(?:not|never|isn't|aren't|wasn't|cannot|can't)))\s*"
    r"(?:(?i:quite|really|yet|even|a|an|the)\s+)?$"
)


# --- figures that are no gains ------------------------------------------------------

QUALITY_NEAR = re.compile(
    r"(?i:loss|accuracy|top-?[15]\b|(?<![A-Za-z\d])(?:mAP|BLEU|ROUGE|F1|AUC)(?![A-Za-z\d])"
    r"|perplexity|quality|target"
    r"|准确率|準確率|精度|损失|損失|目标|目標|质量|質量)"
)
QUALITY_AFTER = re.compile(r"(?i:^%?\s*(?:accuracy|top-?1|top-?5|mAP|AUC|准确率|準確率|精度))")
#: A share: "30% of the servers", "20% 的市场份额" ("24%的性能提升" is a gain).
#: "105% of bare metal performance", "within 3-4% of Nvidia's" compare performance: no share.
SHARE = re.compile(
    r"(?i:^%\s*(?:of\b(?!\s+(?:the\s+)?(?:\w+['’]s?(?!\w)|(?:[A-Za-z-]+\s+){0,3}(?:performance|"
    r"throughput|speed|score|results?)\b))|的?\s*(?:市场|市場|份额|份額|utili[sz]ation)))"
)
SHARE_BEFORE = re.compile(r"(?:占|佔|占比|utili[sz]ation(?: of)?)\s*$")


def _clause_end(before: str) -> str:
    """The words of ``before`` since its last clause break (a full stop, comma...)."""
    return re.split(r"[。；;，,！？!?]|\.\s", before)[-1]


def quality_figure(before: str, after: str) -> bool:
    """Whether the figure between ``before`` and ``after`` (the text around it) is a
    quality target or metric: a loss, an accuracy ("loss of 0.1293", "75.9% top-1
    accuracy", "准确率 76.1%"), not a gain."""
    return bool(QUALITY_NEAR.search(_clause_end(before)[-16:]) or QUALITY_AFTER.match(after))


def share_figure(before: str, after: str) -> bool:
    """Whether a percentage is a share of something, not a gain ("30% of the
    servers", "占 20%", "utilization of 90%")."""
    return bool(SHARE.match(after) or SHARE_BEFORE.search(_clause_end(before)))

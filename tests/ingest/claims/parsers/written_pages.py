"""Pages the claim tests write from the figures vendors published (the pages themselves
are not in ../shared/vendor). IBM's Snap ML announcement (IBM Research, THINK 2018:
Criteo Terabyte click logs, logistic regression, 91.5 s on four Power System AC922
servers with 16 V100 GPUs against TensorFlow's 70 min on 89 Google Cloud CPU machines,
test loss 0.1292 vs 0.1293) in English and as a Chinese repost whose figures stand in
different sentences; Huawei's CANN 5.0 announcement (BERT 6.25 s -> 2.69 s, ResNet
28 s -> 16 s)."""

IBM_EN = (
    "IBM Snap ML: 46x faster than TensorFlow on Google Cloud\n"
    "IBM researchers showed Snap ML, a library for training generalized linear models."
    " Snap ML trained a logistic regression classifier on the Criteo Terabyte Click Logs"
    " in 91.5 seconds on four IBM Power System AC922 servers with 16 NVIDIA Tesla V100"
    " GPUs. That is 46 times faster than the best result reported before, which used"
    " TensorFlow on Google Cloud Platform to train the same model in 70 minutes."
    " The TensorFlow result ran on 89 CPU machines on Google Cloud and was run by Google."
    " Snap ML reached a test loss of 0.1292, TensorFlow a test loss of 0.1293.\n"
)

IBM_ZH = (
    "IBM Snap ML 比 TensorFlow 快 46 倍\n"
    "IBM 研究院表示，Snap ML 在 4 台 IBM Power System AC922 服务器上只用了 91.5 秒就完成了"
    "Criteo 逻辑回归模型的训练。此前的最佳成绩来自谷歌：TensorFlow 在 Google Cloud 的 89 台"
    " CPU 机器上用了 70 分钟。Snap ML 因此比 TensorFlow 快了 46 倍。\n"
)

HUAWEI_ZH = (
    "华为发布 CANN 5.0：BERT 模型训练时间从 6.25 秒缩短到 2.69 秒，缩短了一倍多；"
    "ResNet 模型训练时间从 28 秒缩短到 16 秒。\n"
)

HUAWEI_EN = (
    "Huawei's CANN 5.0 cut BERT training from 6.25 s to 2.69 s, a 57% reduction,"
    " and ResNet training from 28 s to 16 s.\n"
)

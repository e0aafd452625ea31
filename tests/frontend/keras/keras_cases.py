"""The Keras cases both the golden recorder (real TF, tests/golden/record_keras_goldens.py) and the
tests (minixla) build: plain data, no imports of either library.

Layer case: (name, layer class, kwargs, input shape, input kind). Input kind: "float", "int<N>"
(integers in [0, N)), "pos" (positive floats). Two-input layers use a list of shapes.
"""

LAYERS = [
    ("dense", "Dense", {"units": 3}, (4, 5), "float"),
    ("dense_relu", "Dense", {"units": 4, "activation": "relu"}, (4, 5), "float"),
    ("dense_3d", "Dense", {"units": 3, "activation": "tanh"}, (2, 3, 5), "float"),
    ("conv1d", "Conv1D", {"filters": 3, "kernel_size": 3}, (2, 7, 2), "float"),
    ("conv1d_same_stride", "Conv1D", {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "same"}, (2, 7, 3),
     "float"),
    ("conv1d_causal", "Conv1D", {"filters": 2, "kernel_size": 3, "padding": "causal", "dilation_rate": 2},
     (2, 8, 2), "float"),
    ("conv2d", "Conv2D", {"filters": 3, "kernel_size": 3, "activation": "relu"}, (2, 6, 6, 2), "float"),
    ("conv2d_same_stride", "Conv2D", {"filters": 4, "kernel_size": (3, 2), "strides": 2, "padding": "same"},
     (2, 7, 6, 3), "float"),
    ("conv2d_groups", "Conv2D", {"filters": 4, "kernel_size": 2, "groups": 2}, (2, 4, 4, 4), "float"),
    ("conv1d_groups_same", "Conv1D", {"filters": 6, "kernel_size": 3, "groups": 3, "padding": "same"}, (2, 5, 3),
     "float"),
    ("conv2d_dilated", "Conv2D", {"filters": 2, "kernel_size": 2, "dilation_rate": 2}, (1, 6, 6, 2), "float"),
    ("conv3d", "Conv3D", {"filters": 2, "kernel_size": 2}, (1, 4, 4, 4, 2), "float"),
    ("conv2d_transpose", "Conv2DTranspose", {"filters": 3, "kernel_size": 3, "strides": 2, "padding": "same"},
     (2, 4, 4, 2), "float"),
    ("conv2d_transpose_valid", "Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2}, (1, 3, 3, 2),
     "float"),
    ("conv1d_transpose", "Conv1DTranspose", {"filters": 3, "kernel_size": 3, "strides": 2}, (2, 5, 2), "float"),
    ("conv1d_transpose_same", "Conv1DTranspose", {"filters": 2, "kernel_size": 4, "strides": 2, "padding": "same"},
     (1, 4, 3), "float"),
    ("depthwise_conv2d", "DepthwiseConv2D", {"kernel_size": 3, "depth_multiplier": 2}, (2, 5, 5, 3), "float"),
    ("separable_conv2d", "SeparableConv2D", {"filters": 4, "kernel_size": 3, "padding": "same"}, (2, 5, 5, 3),
     "float"),
    ("maxpool1d", "MaxPooling1D", {"pool_size": 2}, (2, 6, 3), "float"),
    ("maxpool2d", "MaxPooling2D", {"pool_size": 2}, (2, 6, 6, 3), "float"),
    ("maxpool2d_same", "MaxPooling2D", {"pool_size": 3, "strides": 2, "padding": "same"}, (2, 7, 7, 2), "float"),
    ("maxpool3d", "MaxPooling3D", {"pool_size": 2}, (1, 4, 4, 4, 2), "float"),
    ("avgpool1d", "AveragePooling1D", {"pool_size": 3, "strides": 1}, (2, 6, 2), "float"),
    ("avgpool2d", "AveragePooling2D", {"pool_size": 2}, (2, 6, 6, 3), "float"),
    ("avgpool2d_same", "AveragePooling2D", {"pool_size": 3, "strides": 2, "padding": "same"}, (2, 5, 5, 2),
     "float"),
    ("avgpool3d", "AveragePooling3D", {"pool_size": 2}, (1, 4, 4, 4, 2), "float"),
    ("gap1d", "GlobalAveragePooling1D", {}, (2, 5, 3), "float"),
    ("gap2d", "GlobalAveragePooling2D", {}, (2, 4, 4, 3), "float"),
    ("gmp2d", "GlobalMaxPooling2D", {}, (2, 4, 4, 3), "float"),
    ("gmp1d_keepdims", "GlobalMaxPooling1D", {"keepdims": True}, (2, 5, 3), "float"),
    ("batchnorm_infer", "BatchNormalization", {}, (4, 3), "float"),
    ("batchnorm_train", "BatchNormalization", {"momentum": 0.9}, (4, 5, 3), "float"),
    ("layernorm", "LayerNormalization", {}, (2, 3, 6), "float"),
    ("layernorm_axes", "LayerNormalization", {"axis": [1, 2], "epsilon": 1e-5}, (2, 3, 4), "float"),
    ("groupnorm", "GroupNormalization", {"groups": 2}, (2, 3, 3, 4), "float"),
    ("unitnorm", "UnitNormalization", {}, (3, 4), "float"),
    ("embedding", "Embedding", {"input_dim": 10, "output_dim": 4}, (2, 5), "int10"),
    ("flatten", "Flatten", {}, (2, 3, 4), "float"),
    ("reshape", "Reshape", {"target_shape": (4, -1)}, (2, 3, 4), "float"),
    ("permute", "Permute", {"dims": (2, 1)}, (2, 3, 4), "float"),
    ("repeat_vector", "RepeatVector", {"n": 3}, (2, 4), "float"),
    ("zero_padding2d", "ZeroPadding2D", {"padding": ((1, 2), (0, 1))}, (2, 3, 3, 2), "float"),
    ("cropping2d", "Cropping2D", {"cropping": ((1, 0), (1, 1))}, (2, 4, 5, 2), "float"),
    ("upsampling2d", "UpSampling2D", {"size": (2, 3)}, (2, 2, 3, 2), "float"),
    ("upsampling1d", "UpSampling1D", {"size": 2}, (2, 3, 2), "float"),
    ("rescaling", "Rescaling", {"scale": 1 / 255.0, "offset": -0.5}, (2, 4), "pos"),
    ("activation_gelu", "Activation", {"activation": "gelu"}, (3, 4), "float"),
    ("activation_silu", "Activation", {"activation": "silu"}, (3, 4), "float"),
    ("activation_softmax", "Activation", {"activation": "softmax"}, (3, 4), "float"),
    ("activation_selu", "Activation", {"activation": "selu"}, (3, 4), "float"),
    ("activation_softplus", "Activation", {"activation": "softplus"}, (3, 4), "float"),
    ("activation_hard_sigmoid", "Activation", {"activation": "hard_sigmoid"}, (3, 4), "float"),
    ("activation_mish", "Activation", {"activation": "mish"}, (3, 4), "float"),
    ("leaky_relu", "LeakyReLU", {"negative_slope": 0.1}, (3, 4), "float"),
    ("relu_max", "ReLU", {"max_value": 0.5}, (3, 4), "float"),
    ("elu", "ELU", {}, (3, 4), "float"),
    ("softmax_layer", "Softmax", {}, (3, 4), "float"),
    ("prelu", "PReLU", {}, (3, 4), "float"),
    ("add", "Add", {}, [(2, 3), (2, 3)], "float"),
    ("subtract", "Subtract", {}, [(2, 3), (2, 3)], "float"),
    ("multiply", "Multiply", {}, [(2, 3), (2, 3)], "float"),
    ("average", "Average", {}, [(2, 3), (2, 3)], "float"),
    ("maximum", "Maximum", {}, [(2, 3), (2, 3)], "float"),
    ("concatenate", "Concatenate", {"axis": -1}, [(2, 3), (2, 2)], "float"),
    ("dot", "Dot", {"axes": 1}, [(2, 3), (2, 3)], "float"),
    ("simple_rnn", "SimpleRNN", {"units": 3}, (2, 4, 2), "float"),
    ("simple_rnn_seq", "SimpleRNN", {"units": 3, "return_sequences": True}, (2, 4, 2), "float"),
    ("lstm", "LSTM", {"units": 3}, (2, 5, 2), "float"),
    ("lstm_seq", "LSTM", {"units": 2, "return_sequences": True}, (2, 4, 3), "float"),
    ("gru", "GRU", {"units": 3}, (2, 5, 2), "float"),
    ("gru_seq_noreset", "GRU", {"units": 2, "return_sequences": True, "reset_after": False}, (2, 4, 3),
     "float"),
    ("bidirectional_lstm", "Bidirectional", {"layer": ("LSTM", {"units": 2, "return_sequences": True})},
     (2, 4, 3), "float"),
    ("bidirectional_gru_sum", "Bidirectional", {"layer": ("GRU", {"units": 3}), "merge_mode": "sum"}, (2, 5, 2),
     "float"),
    ("mha_value_dim_output_shape", "MultiHeadAttention", {"num_heads": 2, "key_dim": 2, "value_dim": 3,
                                                           "output_shape": 4}, [(2, 4, 5), (2, 4, 5)], "float"),
    ("mha", "MultiHeadAttention", {"num_heads": 2, "key_dim": 3}, [(2, 4, 5), (2, 3, 5)], "float"),
    ("attention", "Attention", {}, [(2, 4, 3), (2, 5, 3)], "float"),
    ("attention_scaled_with_key", "Attention", {"use_scale": True}, [(2, 4, 3), (2, 5, 3), (2, 5, 3)], "float"),
    ("attention_concat", "Attention", {"score_mode": "concat"}, [(2, 3, 2), (2, 4, 2)], "float"),
]



def make_layer(layers, cls: str, kwargs: dict):
    """Build a case's layer from a `keras.layers` namespace (a wrapped layer is given as (class, kwargs))."""
    kwargs = {k: make_layer(layers, *v) if k == "layer" else v for k, v in kwargs.items()}
    return getattr(layers, cls)(**kwargs)


# layers whose output depends on training=True and is deterministic (recorded both ways)
TRAINING_LAYERS = {"batchnorm_train"}

LOSSES = [
    ("mse", "MeanSquaredError", {}, "reg"),
    ("mae", "MeanAbsoluteError", {}, "reg"),
    ("mape", "MeanAbsolutePercentageError", {}, "reg"),
    ("msle", "MeanSquaredLogarithmicError", {}, "pos"),
    ("bce", "BinaryCrossentropy", {}, "binary_prob"),
    ("bce_logits_smooth", "BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, "binary_logit"),
    ("binary_focal", "BinaryFocalCrossentropy", {"gamma": 2.0}, "binary_prob"),
    ("binary_focal_balanced", "BinaryFocalCrossentropy", {"apply_class_balancing": True, "from_logits": True},
     "binary_logit"),
    ("cce", "CategoricalCrossentropy", {}, "onehot_prob"),
    ("cce_logits_smooth", "CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.2}, "onehot_logit"),
    ("categorical_focal", "CategoricalFocalCrossentropy", {}, "onehot_prob"),
    ("scce", "SparseCategoricalCrossentropy", {}, "sparse_prob"),
    ("scce_logits", "SparseCategoricalCrossentropy", {"from_logits": True}, "sparse_logit"),
    ("hinge", "Hinge", {}, "binary_logit"),
    ("squared_hinge", "SquaredHinge", {}, "binary_logit"),
    ("categorical_hinge", "CategoricalHinge", {}, "onehot_logit"),
    ("huber", "Huber", {"delta": 0.5}, "reg"),
    ("log_cosh", "LogCosh", {}, "reg"),
    ("kld", "KLDivergence", {}, "onehot_prob"),
    ("poisson", "Poisson", {}, "pos"),
    ("cosine", "CosineSimilarity", {}, "reg"),
    ("mse_sum", "MeanSquaredError", {"reduction": "sum"}, "reg"),
]

METRICS = [
    ("accuracy", "Accuracy", {}, "sparse_pred_ids"),
    ("binary_accuracy", "BinaryAccuracy", {}, "binary_prob"),
    ("categorical_accuracy", "CategoricalAccuracy", {}, "onehot_prob"),
    ("sparse_categorical_accuracy", "SparseCategoricalAccuracy", {}, "sparse_prob"),
    ("top_k", "TopKCategoricalAccuracy", {"k": 2}, "onehot_prob"),
    ("sparse_top_k", "SparseTopKCategoricalAccuracy", {"k": 2}, "sparse_prob"),
    ("mse", "MeanSquaredError", {}, "reg"),
    ("mae", "MeanAbsoluteError", {}, "reg"),
    ("rmse", "RootMeanSquaredError", {}, "reg"),
    ("cosine", "CosineSimilarity", {}, "reg"),
    ("logcosh", "LogCoshError", {}, "reg"),
    ("bce", "BinaryCrossentropy", {}, "binary_prob"),
    ("cce", "CategoricalCrossentropy", {}, "onehot_prob"),
    ("scce", "SparseCategoricalCrossentropy", {}, "sparse_prob"),
    ("kld", "KLDivergence", {}, "onehot_prob"),
    ("precision", "Precision", {}, "binary_prob"),
    ("recall", "Recall", {}, "binary_prob"),
    ("precision_thresholds", "Precision", {"thresholds": [0.3, 0.7]}, "binary_prob"),
    ("auc_roc", "AUC", {}, "binary_prob"),
    ("auc_pr", "AUC", {"curve": "PR"}, "binary_prob"),
    ("true_positives", "TruePositives", {}, "binary_prob"),
    ("false_negatives", "FalseNegatives", {}, "binary_prob"),
    ("mean_iou", "MeanIoU", {"num_classes": 3}, "sparse_pred_ids"),
    ("r2", "R2Score", {}, "reg"),
]

OPTIMIZERS = [
    ("sgd", "SGD", {"learning_rate": 0.1}),
    ("sgd_momentum", "SGD", {"learning_rate": 0.1, "momentum": 0.9}),
    ("sgd_nesterov", "SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}),
    ("adam", "Adam", {"learning_rate": 0.01}),
    ("adam_amsgrad", "Adam", {"learning_rate": 0.01, "amsgrad": True}),
    ("adamw", "AdamW", {"learning_rate": 0.01, "weight_decay": 0.1}),
    ("rmsprop", "RMSprop", {"learning_rate": 0.01}),
    ("rmsprop_centered_momentum", "RMSprop", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
    ("adagrad", "Adagrad", {"learning_rate": 0.1}),
    ("adadelta", "Adadelta", {"learning_rate": 1.0}),
    ("adamax", "Adamax", {"learning_rate": 0.01}),
    ("nadam", "Nadam", {"learning_rate": 0.01}),
    ("lion", "Lion", {"learning_rate": 0.01}),
    ("sgd_clipnorm", "SGD", {"learning_rate": 0.1, "clipnorm": 0.5}),
    ("sgd_clipvalue", "SGD", {"learning_rate": 0.1, "clipvalue": 0.2}),
    ("adam_global_clipnorm", "Adam", {"learning_rate": 0.01, "global_clipnorm": 0.3}),
]

# learning-rate schedules, recorded at these steps
SCHEDULES = [
    ("exponential", "ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 3, "decay_rate": 0.5}),
    ("exponential_stair", "ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 3, "decay_rate": 0.5,
                                               "staircase": True}),
    ("piecewise", "PiecewiseConstantDecay", {"boundaries": [2, 5], "values": [0.1, 0.05, 0.01]}),
    ("polynomial", "PolynomialDecay", {"initial_learning_rate": 0.1, "decay_steps": 6, "power": 2.0}),
    ("inverse_time", "InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": 2, "decay_rate": 0.5}),
    ("cosine", "CosineDecay", {"initial_learning_rate": 0.1, "decay_steps": 6, "alpha": 0.1}),
    ("cosine_warmup", "CosineDecay", {"initial_learning_rate": 0.0, "decay_steps": 6, "warmup_target": 0.1,
                                      "warmup_steps": 3}),
]
SCHEDULE_STEPS = [0, 1, 2, 3, 4, 5, 6, 7, 9]
OPTIMIZER_STEPS = 3


# ---- small models whose layers pass masks along (Embedding(mask_zero) / Masking -> consumers) ----
def _embed(keras, inp):
    return keras.layers.Embedding(7, 3, mask_zero=True)(inp)


def masked_embed_lstm(keras):
    inp = keras.Input((6,), dtype="int32")
    return keras.Model(inp, keras.layers.LSTM(2)(_embed(keras, inp)))


def masked_embed_gru_seq_pool(keras):
    inp = keras.Input((6,), dtype="int32")
    h = keras.layers.GRU(3, return_sequences=True)(_embed(keras, inp))
    h = keras.layers.Dense(2, activation="tanh")(h)
    return keras.Model(inp, keras.layers.GlobalAveragePooling1D()(h))


def masked_embed_bidirectional(keras):
    inp = keras.Input((6,), dtype="int32")
    return keras.Model(inp, keras.layers.Bidirectional(keras.layers.SimpleRNN(2))(_embed(keras, inp)))


def masked_embed_bidirectional_seq(keras):
    inp = keras.Input((6,), dtype="int32")
    h = keras.layers.Bidirectional(keras.layers.LSTM(2, return_sequences=True))(_embed(keras, inp))
    return keras.Model(inp, keras.layers.GlobalAveragePooling1D()(h))


def masked_embed_attention(keras):
    inp = keras.Input((6,), dtype="int32")
    h = _embed(keras, inp)
    h = keras.layers.MultiHeadAttention(num_heads=1, key_dim=2)(h, h)
    return keras.Model(inp, keras.layers.GlobalAveragePooling1D()(h))


def masking_simple_rnn(keras):
    inp = keras.Input((5, 2))
    return keras.Model(inp, keras.layers.SimpleRNN(3)(keras.layers.Masking(0.0)(inp)))


MASKED_MODELS = {
    "embed_lstm": (masked_embed_lstm, "ids"),
    "embed_gru_seq_pool": (masked_embed_gru_seq_pool, "ids"),
    "embed_bidirectional": (masked_embed_bidirectional, "ids"),
    "embed_bidirectional_seq": (masked_embed_bidirectional_seq, "ids"),
    "embed_attention": (masked_embed_attention, "ids"),
    "masking_simple_rnn": (masking_simple_rnn, "padded"),
}

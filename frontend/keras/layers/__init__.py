"""`tf.keras.layers`, one module per family."""

from minixla.frontend.keras.functional import Input, InputLayer  # noqa: F401
from minixla.frontend.keras.layers.attention import Attention, MultiHeadAttention  # noqa: F401
from minixla.frontend.keras.layers.base import Layer  # noqa: F401
from minixla.frontend.keras.layers.conv import (  # noqa: F401
    Conv, Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D, Convolution1D, Convolution1DTranspose,
    Convolution2D, Convolution2DTranspose, Convolution3D, DepthwiseConv2D, SeparableConv2D,
)
from minixla.frontend.keras.layers.core import (  # noqa: F401
    Activation, ActivityRegularization, Dense, Dropout, ELU, Embedding, GaussianNoise, Identity, Lambda,
    LeakyReLU, Masking, PReLU, ReLU, Rescaling, Softmax, SpatialDropout2D,
)
from minixla.frontend.keras.layers.merge import (  # noqa: F401
    Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract,
)
from minixla.frontend.keras.layers.merge import (  # noqa: F401
    add,
    average,
    concatenate,
    dot,
    maximum,
    minimum,
    multiply,
    subtract,
)
from minixla.frontend.keras.layers.normalization import (  # noqa: F401
    BatchNormalization, GroupNormalization, LayerNormalization, UnitNormalization,
)
from minixla.frontend.keras.layers.pooling import (  # noqa: F401
    AveragePooling1D, AveragePooling2D, AveragePooling3D, AvgPool1D, AvgPool2D, AvgPool3D,
    GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D, GlobalAvgPool1D,
    GlobalAvgPool2D, GlobalAvgPool3D, GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D, GlobalMaxPooling1D,
    GlobalMaxPooling2D, GlobalMaxPooling3D, MaxPool1D, MaxPool2D, MaxPool3D, MaxPooling1D, MaxPooling2D,
    MaxPooling3D,
)
from minixla.frontend.keras.layers.preprocessing import Normalization  # noqa: F401
from minixla.frontend.keras.layers.recurrent import GRU, LSTM, Bidirectional, SimpleRNN  # noqa: F401
from minixla.frontend.keras.layers.reshaping import (  # noqa: F401
    Cropping1D, Cropping2D, Flatten, Permute, RepeatVector, Reshape, UpSampling1D, UpSampling2D,
    ZeroPadding1D, ZeroPadding2D, ZeroPadding3D,
)

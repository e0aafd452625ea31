"""`tf.keras.layers`, one module per family."""

from minixla.frontend.keras.functional import Input, InputLayer  # noqa: F401
from minixla.frontend.keras.layers.attention import Attention, MultiHeadAttention  # noqa: F401
from minixla.frontend.keras.layers.base import Layer  # noqa: F401
from minixla.frontend.keras.layers.conv import *
from minixla.frontend.keras.layers.core import *
from minixla.frontend.keras.layers.merge import *
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
from minixla.frontend.keras.layers.normalization import *
from minixla.frontend.keras.layers.pooling import *
from minixla.frontend.keras.layers.preprocessing import Normalization  # noqa: F401
from minixla.frontend.keras.layers.recurrent import GRU, LSTM, Bidirectional, SimpleRNN  # noqa: F401
from minixla.frontend.keras.layers.reshaping import *

"""The Bessel family's kernel helpers gathered for ``special.py``: K0, K1 and e^x K
(``bessel_k.py``), K_v (``bessel_kv.py``), J_v and Y_v (``bessel_jy.py``; orders 0 and 1,
and yn, in ``bessel_jy01.py``; integer orders in ``bessel_integer.py``), I_v
(``bessel_iv.py``), spherical j_n and y_n (``spherical_bessel.py``), with what each needs
and which float32 forms compute in double."""

from __future__ import annotations

from .bessel_integer import BESSEL_INTEGER, BESSEL_INTEGER_NEEDS
from .bessel_iv import BESSEL_IV, BESSEL_IV_NEEDS
from .bessel_jy import BESSEL_JY, BESSEL_JY_NEEDS
from .bessel_jy01 import BESSEL_JY01, BESSEL_JY01_NEEDS
from .bessel_k import BESSEL_K, BESSEL_K_NEEDS
from .bessel_kv import BESSEL_KV, BESSEL_KV_NEEDS
from .spherical_bessel import SPHERICAL_BESSEL, SPHERICAL_BESSEL_NEEDS

BESSEL: dict[str, str] = {**BESSEL_K, **BESSEL_KV, **BESSEL_JY, **BESSEL_JY01, **BESSEL_IV,
                          **SPHERICAL_BESSEL, **BESSEL_INTEGER}
BESSEL_NEEDS: dict[str, tuple[str, ...]] = {**BESSEL_K_NEEDS, **BESSEL_KV_NEEDS,
                                            **BESSEL_JY_NEEDS, **BESSEL_JY01_NEEDS,
                                            **BESSEL_IV_NEEDS, **SPHERICAL_BESSEL_NEEDS,
                                            **BESSEL_INTEGER_NEEDS}
# name -> arity of the ops among them whose float32 forms round the float64 value
# (special.THROUGH_DOUBLE).
BESSEL_THROUGH_DOUBLE: dict[str, int] = {
    "k0": 1, "k1": 1, "k0e": 1, "k1e": 1, "kv": 2, "kve": 2, "kv_dv": 2, "kve_dv": 2,
    "jv": 2, "yv": 2, "j0": 1, "j1": 1, "y0": 1, "y1": 1, "yn": 2, "jv_dv": 2, "yv_dv": 2,
    "iv": 2, "ive": 2, "iv_dv": 2, "ive_dv": 2, "sph_jn": 2, "sph_yn": 2}

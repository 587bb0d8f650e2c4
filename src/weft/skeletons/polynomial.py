"""Polynomials as C statements, for the device functions that evaluate fitted or series
polynomials (trig.py, erfinv.py, own_erf.py, erfcx.py, bessel_jy01.py, bessel_k.py): Horner's
rule, in double or in a template's type (``templated_horner``), and a function given by
pieces, each a polynomial in its variable's distance from the piece's centre.

>>> print(horner([1.0, 0.5], "x", "p"))
    double p = 1.0;
    p = p * x + 0.5;
>>> print(templated_horner([1.0, 0.5], "t", "p", indent=0), end="")
{T} p = 1.0{F};
p = p * t + 0.5{F};
"""

from __future__ import annotations

from collections.abc import Sequence


def _literal(coefficient: float | str) -> str:
    return coefficient if isinstance(coefficient, str) else repr(coefficient)


def horner(coefficients: Sequence[float | str], variable: str, result: str) -> str:
    """C statements leaving in ``result`` (a new double) the polynomial in ``variable`` with
    ``coefficients``, highest degree first (numbers, or C expressions as text)."""
    lines = [f"    double {result} = {_literal(coefficients[0])};"]
    lines += [f"    {result} = {result} * {variable} + {_literal(c)};" for c in coefficients[1:]]
    return "\n".join(lines)


def templated_horner(coefficients: Sequence[float], variable: str, result: str,
                     indent: int = 4, declare: bool = True) -> str:
    """Lines of a skeleton template (``{T}``: its type, ``{F}``: its literals' suffix) leaving
    in ``result`` (declared, unless ``declare`` is false) the polynomial in ``variable`` with
    ``coefficients``, highest degree first; each line ends with a newline."""
    first, *rest = coefficients
    lines = [f"{'{T} ' if declare else ''}{result} = {first!r}{{F}};"]
    lines += [f"{result} = {result} * {variable} + {c!r}{{F}};" for c in rest]
    return "".join(" " * indent + line + "\n" for line in lines)


def pieces(fits: Sequence[tuple[str, float, float, Sequence[float]]],
           names: dict[str, str]) -> tuple[list[str], str]:
    """C statements evaluating each fit ``(variable, high, centre, coefficients)``, a
    polynomial in ``variable - centre``, into ``g0``, ``g1``, ..., and the expression that
    picks the first whose ``high`` is at least its variable (the last one beyond). ``names``
    gives each fit's variable as the C text holding it."""
    lines = []
    for k, (variable, _, centre, coefficients) in enumerate(fits):
        lines.append(f"    const double t{k} = {names[variable]} - {centre!r};")
        lines.append(horner(coefficients, f"t{k}", f"g{k}"))
    choice = f"g{len(fits) - 1}"
    for k in reversed(range(len(fits) - 1)):
        variable, high = fits[k][0], fits[k][1]
        choice = f"({names[variable]} <= {high!r} ? g{k} : {choice})"
    return lines, choice

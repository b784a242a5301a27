"""The papers' claims as executable verdicts, beside (not inside) the builders.

Each function checks one printed statement (a theorem, a closed form, an equivalence)
numerically and returns a verdict with the numbers behind it; a test calls it.  One module
per paper, named as its formulation module.
"""

"""The human step of the papers, built in: rewrites exported for people to judge, their judgments
read back and a source filtered to the rewrites they kept (``textattack-semparse validate``;
docs/validation.md).

Huang et al. (2021) had three crowd workers judge each substitution (nf), back-translation and
reordering rewrite (not the function-word ones) and kept those at least two called the same; Zhuo et al. (2023) had experts pick the best of the candidates Sentence-BERT kept. The
pure pieces live here (the sources a rewrite comes from, the items people see, the annotation
page, the decision rules, Fleiss' and Cohen's kappa); the workflows are
:mod:`textattack_semparse.experiments.validate`.
"""

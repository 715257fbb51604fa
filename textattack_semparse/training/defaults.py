"""The default model and optimiser settings of ``ParserTrainer``, importable without torch (the
``train`` command shows them in ``--help``).

Chosen by measurement on 2 CPU cores (docs/training.md): a two-layer BART of about 1 M
parameters trains on GeoQuery in minutes and, with entity anonymisation, parses it as well as
the twice-wider, three-layer models tried before it.
"""

ARCHITECTURE = "bart"
D_MODEL = 128
D_FF = 512
NUM_LAYERS = 2
NUM_HEADS = 4
DROPOUT = 0.1
EPOCHS = 100
BATCH_SIZE = 32
LEARNING_RATE = 1e-3
WARMUP_STEPS = 200
PATIENCE = 10
DEV_FRACTION = 0.1

ADVERSARY_METHODS = ("fgm", "pgd")
"""The embedding-space adversaries of ``train --defence`` (:mod:`~textattack_semparse.training.embedding_adversary`)."""
ADVERSARY_EPSILON = 1.0
"""Default radius ε of the perturbation (L2 norm per example)."""
ADVERSARY_ALPHA = 0.3
"""Default PGD step size α."""
ADVERSARY_STEPS = 3
"""Default number K of PGD steps."""

# ``TableQATrainer`` (fine-tuning a pretrained TAPEX/OmniTab-style model; ours, RobuT's released
# code runs inference only): 8 x 4 = 32 examples per optimiser step.
TABLE_QA_EPOCHS = 10
TABLE_QA_BATCH_SIZE = 8
TABLE_QA_GRADIENT_ACCUMULATION_STEPS = 4
TABLE_QA_LEARNING_RATE = 3e-5

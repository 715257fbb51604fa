"""Augmented training files: CSV, text2sql-data JSON and logical-form TSV, gold literals protected.

Each module reads one file format and writes it back with augmented questions added
(:mod:`.csv_augmentation`, :mod:`.text2sql_augmentation`, :mod:`.tsv_augmentation`);
:mod:`.literal_protection` adapts a TextAttack augmenter so the database values of a gold
output survive the augmentation of its question.
"""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "AugmentationCounts": "output_files",
        "augment_csv": "csv_augmentation",
        "augment_text2sql": "text2sql_augmentation",
        "augment_tsv": "tsv_augmentation",
        "keeps_literals": "literal_protection",
        "protecting_literals": "literal_protection",
        "retemplate": "text2sql_augmentation",
    },
)

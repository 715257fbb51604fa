"""Augmented training files: CSV, text2sql-data JSON and logical-form TSV, gold literals protected.

Each module reads one file format and writes it back with augmented questions added
(:mod:`.csv_augmentation`, :mod:`.text2sql_augmentation`, :mod:`.tsv_augmentation`);
:mod:`.literal_protection` adapts a TextAttack augmenter so the database values of a gold
output survive the augmentation of its question; :mod:`.word_list_augmenter` is TextAttack's
augmenter making only the augmentations it keeps, on word lists (random deletion and swap);
:mod:`.per_operation` draws one sample and perturbs it by each operation (Huang et al. 2021's MDA);
:mod:`.concatenation` joins two random training examples (Jia & Liang 2016);
:mod:`.dataset_files` finds the file behind a registered dataset name.
"""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "AugmentationCounts": "output_files",
        "AugmentationItem": "per_operation",
        "DatasetFile": "dataset_files",
        "OperationSample": "per_operation",
        "csv_items": "csv_augmentation",
        "dataset_file": "dataset_files",
        "operation_output_path": "per_operation",
        "replaying": "per_operation",
        "sample_indices": "per_operation",
        "sample_operation": "per_operation",
        "sample_size": "per_operation",
        "text2sql_items": "text2sql_augmentation",
        "tsv_items": "tsv_augmentation",
        "augment_csv": "csv_augmentation",
        "augment_text2sql": "text2sql_augmentation",
        "augment_tsv": "tsv_augmentation",
        "keeps_literals": "literal_protection",
        "protecting_literals": "literal_protection",
        "retemplate": "text2sql_augmentation",
        "WordListAugmenter": "word_list_augmenter",
    },
)

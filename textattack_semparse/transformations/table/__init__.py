"""Table perturbations of RobuT (Zhao et al. 2023, https://arxiv.org/abs/2306.14321): header and content."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ColumnAdding": "column_adding",
        "ColumnExtension": "column_extension",
        "ColumnMasking": "column_masking",
        "ColumnShuffle": "column_shuffle",
        "HeaderAbbreviation": "header_abbreviation",
        "HeaderRenaming": "header_renaming",
        "HeaderSynonymReplacement": "header_synonym_replacement",
        "OrderShuffle": "order_shuffle",
        "RowShuffle": "row_shuffle",
        "TableExample": "table_example",
        "TableTransformation": "table_transformation",
    },
)

"""Tables for Table QA (RobuT, Zhao et al. 2023): the table record and how it travels with a question."""

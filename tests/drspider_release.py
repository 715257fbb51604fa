"""A Dr.Spider release in the layout of awslabs/diagnostic-robustness-text-to-sql's ``data.tar.gz``,
written from real Spider dev rows and databases plus hand-written perturbations.

Three sets: ``NLQ_keyword_synonym`` (questions reworded; question 0 perturbed twice),
``SQL_comparison`` (the comparison reversed in question and SQL) and ``DB_schema_synonym``,
whose post-perturbation database ``concert_singer_0`` is a copy of ``concert_singer`` with
``singer.Name`` renamed ``Full_Name``. The databases of the pre side are not copied in (the
release's ``data_preprocess.py`` was not run): they are read from ``SEMPARSE_DATA_DIR/spider-dev``.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

RENAMED_GOLD = "SELECT full_name ,  country ,  age FROM singer ORDER BY age DESC"
"""The post-perturbation gold of ``DB_schema_synonym`` row 0: runs only on the renamed database."""

NLQ_POST = [  # (q_id_spider_dev, perturbed question)
    (0, "How many singers are there?"),
    (0, "What number of singers do we have?"),
    (2, "Show name, country, age for all singers sorted by age from the oldest to the youngest."),
    (4, "What is the mean, minimum, and maximum age of all singers from France?"),
]
SQL_POST = [  # (q_id_spider_dev, question, query)
    (8, "What are all distinct countries where singers below age 30 are from?", "SELECT DISTINCT country FROM singer WHERE age  <  30"),
    (12, "List all song names by singers below the average age.", "SELECT song_name FROM singer WHERE age  <  (SELECT avg(age) FROM singer)"),
]
DB_POST = [  # (q_id_spider_dev, query on concert_singer_0)
    (2, RENAMED_GOLD),
    (6, "SELECT song_name ,  song_release_year FROM singer ORDER BY age LIMIT 1"),
]


def write_drspider_release(folder: Path, spider_dev: Path) -> Path:
    """Write the three sets under ``folder`` (the release's ``data/``) and return ``folder``."""
    dev = json.loads((spider_dev / "dev.json").read_text(encoding="utf-8"))
    nlq = [(dev[q_id], {**_entry(dev[q_id], q_id), "question": question}) for q_id, question in NLQ_POST]
    _write_set(folder / "NLQ_keyword_synonym", nlq)
    sql = [(dev[q_id], {**_entry(dev[q_id], q_id), "question": question, "query": query}) for q_id, question, query in SQL_POST]
    _write_set(folder / "SQL_comparison", sql)
    database = [(dev[q_id], {**_entry(dev[q_id], q_id), "query": query, "db_id": "concert_singer_0"}) for q_id, query in DB_POST]
    _write_set(folder / "DB_schema_synonym", database)
    renamed = folder / "DB_schema_synonym" / "database_post_perturbation" / "concert_singer_0" / "concert_singer_0.sqlite"
    renamed.parent.mkdir(parents=True)
    shutil.copyfile(spider_dev / "database" / "concert_singer" / "concert_singer.sqlite", renamed)
    with sqlite3.connect(renamed) as connection:
        connection.execute('ALTER TABLE singer RENAME COLUMN "Name" TO "Full_Name"')
    connection.close()
    return folder


def _entry(row: dict[str, Any], q_id: int) -> dict[str, Any]:
    """A Spider dev row as Dr.Spider ships it: the Spider fields and ``q_id_spider_dev``."""
    return {"db_id": row["db_id"], "query": row["query"], "question": row["question"], "q_id_spider_dev": q_id}


def _write_set(folder: Path, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    folder.mkdir(parents=True)
    pre = [_entry(row, post["q_id_spider_dev"]) for row, post in pairs]
    (folder / "questions_pre_perturbation.json").write_text(json.dumps(pre, indent=2), encoding="utf-8")
    (folder / "questions_post_perturbation.json").write_text(json.dumps([post for _, post in pairs], indent=2), encoding="utf-8")

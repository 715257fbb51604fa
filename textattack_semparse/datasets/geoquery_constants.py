"""GeoQuery's database values as the lambda-calculus constants of ``geo-lambda``.

Zettlemoyer & Collins (2005) write GeoQuery's entities as typed constants: a state
``new_jersey:s``, a city with its state's postal code ``erie_pa:c`` (or, named in a question
like "cities named erie", ``erie:n``), a river ``delaware_river:r``. A parser trained on the
600 training questions sees only their entities; the geography database of text2sql-data
(Finegan-Dollak et al. 2018, https://aclanthology.org/P18-1033/) names every state, city and
river, so entity anonymisation (:mod:`textattack_semparse.datasets.entity_anonymization`) can
also recognise the ones training never saw and write their atoms back.

This module does not import TextAttack.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.errors import DatasetError

POSTAL_CODES = {
    "alabama": "al", "alaska": "ak", "arizona": "az", "arkansas": "ar", "california": "ca",
    "colorado": "co", "connecticut": "ct", "delaware": "de", "district of columbia": "dc",
    "florida": "fl", "georgia": "ga", "hawaii": "hi", "idaho": "id", "illinois": "il",
    "indiana": "in", "iowa": "ia", "kansas": "ks", "kentucky": "ky", "louisiana": "la",
    "maine": "me", "maryland": "md", "massachusetts": "ma", "michigan": "mi", "minnesota": "mn",
    "mississippi": "ms", "missouri": "mo", "montana": "mt", "nebraska": "ne", "nevada": "nv",
    "new hampshire": "nh", "new jersey": "nj", "new mexico": "nm", "new york": "ny",
    "north carolina": "nc", "north dakota": "nd", "ohio": "oh", "oklahoma": "ok", "oregon": "or",
    "pennsylvania": "pa", "rhode island": "ri", "south carolina": "sc", "south dakota": "sd",
    "tennessee": "tn", "texas": "tx", "utah": "ut", "vermont": "vt", "virginia": "va",
    "washington": "wa", "west virginia": "wv", "wisconsin": "wi", "wyoming": "wy",
}  # fmt: skip
"""US state -> its two-letter postal code, the suffix of a GeoQuery city atom (``austin_tx:c``)."""


@dataclass(frozen=True)
class KnownConstant:
    """A constant of a benchmark's domain, as a question spells it and a logical form writes it.

    Args:
        spelling (str): Lower-case words (``"san antonio"``).
        type (str): The placeholder type (the atom's type suffix, ``"c"``).
        atom (str): The constant (``"san_antonio_tx:c"``).
    """

    spelling: str
    type: str
    atom: str


def geoquery_constants(database: str | os.PathLike[str]) -> tuple[KnownConstant, ...]:
    """The states, cities and rivers of GeoQuery's ``geography.sqlite`` as ``geo-lambda`` constants.

    A state gives ``<name>:s``; a city ``<name>_<postal code>:c`` (the most populous one for
    a name several states share) and ``<name>:n``; a river, spelled with or without
    "river", ``<name>_river:r`` and ``<name>:n``. Spaces become ``_``.

    Raises:
        DatasetError: ``database`` is not a readable GeoQuery database.

    Example:
        >>> import os
        >>> data = os.environ.get("SEMPARSE_DATA_DIR")
        >>> constants = geoquery_constants(f"{data}/text2sql/geography.sqlite") if data else ()
        >>> not data or KnownConstant("new jersey", "s", "new_jersey:s") in constants
        True
    """
    path = Path(database)
    if not path.is_file():
        raise DatasetError(f"GeoQuery database {str(path)!r} does not exist.")
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        states = [name for (name,) in connection.execute("SELECT DISTINCT state_name FROM state")]
        cities = connection.execute("SELECT city_name, state_name FROM city ORDER BY population DESC").fetchall()
        rivers = [name for (name,) in connection.execute("SELECT DISTINCT river_name FROM river")]
    except sqlite3.Error as error:
        raise DatasetError(f"{str(path)!r} is not a GeoQuery database: {error}.") from error
    finally:
        connection.close()
    constants: dict[tuple[str, str], KnownConstant] = {}

    def add(spelling: str, value_type: str, name: str) -> None:
        constants.setdefault((spelling, value_type), KnownConstant(spelling, value_type, f"{name}:{value_type}"))

    for state in states:
        spelling = _spelling(state)
        add(spelling, "s", spelling.replace(" ", "_"))
    for city, state in cities:
        code = POSTAL_CODES.get(_spelling(state or ""))
        spelling = _spelling(city)
        if code is not None:
            add(spelling, "c", f"{spelling.replace(' ', '_')}_{code}")
        add(spelling, "n", spelling.replace(" ", "_"))
    for river in rivers:
        spelling = _spelling(river)
        add(spelling, "r", f"{spelling.replace(' ', '_')}_river")
        add(f"{spelling} river", "r", f"{spelling.replace(' ', '_')}_river")
        add(spelling, "n", spelling.replace(" ", "_"))
    return tuple(constants.values())


def _spelling(name: str) -> str:
    return " ".join(name.lower().split())

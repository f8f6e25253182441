"""Session 20, ninth walk: figures a new user reads off `annotate prelabel`, `audit --discover`, `audit` and
`report` on inputs written here as other tools and authors write theirs (licences and SPDX headers, benchmark
data in fictional phone ranges, …), each checked against a count made by hand."""

import json

from test_new_user_walk_5 import _prelabel, _values
from test_new_user_walk_8 import _agent_log, _cli

_LICENSE = """MIT License

Copyright (c) 2024 Thandiwe Mahlangu

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
"""
_HEADER = """# SPDX-FileCopyrightText: 2023 Oluwaseun Adeyemi
# SPDX-FileCopyrightText: © 2022 Siobhán Ní Bhriain
# SPDX-License-Identifier: Apache-2.0
# Copyright 2018 The TensorFlow Authors. All Rights Reserved.
# Copyright (c) 2024 Google LLC
# Copyright (C) 2019-2021, Tomasz Wiśniewski and contributors
# (c) Send The Report Now
\"\"\"Export helpers. © 2021 Jane Doe\"\"\"
"""


def test_a_copyright_lines_holder_is_a_person_to_label_and_to_discover(tmp_path):
    """A licence and a source file's SPDX and copyright headers, as GitHub's MIT template and REUSE write them. By
    hand: 4 people (the licence's holder, two SPDX holders, one of a `Copyright (C) 2019-2021,` line without its
    `and contributors`) and a company (`Google LLC`, business, as before); not people: `The TensorFlow Authors`,
    `Google LLC`, a list's `(c)` item, `Jane Doe` (a placeholder). Before: none was proposed (no name list knows Thandiwe, Oluwaseun or Siobhán, and no key said
    `name`); `audit --discover` over an agent that read both files found none of them either."""
    units = _prelabel(tmp_path, {"LICENSE": _LICENSE, "export.py": _HEADER})
    assert _values(units) == [("business", "Google LLC"), ("person_name", "Oluwaseun Adeyemi"), ("person_name", "Siobhán Ní Bhriain"),
                              ("person_name", "Thandiwe Mahlangu"), ("person_name", "Tomasz Wiśniewski")]
    log = _agent_log(tmp_path / "logs" / "req.json", _LICENSE, _HEADER)
    code, output = _cli("audit", log, "--discover", "--no-presidio", "--show-values", "--json")
    assert code == 0, output
    found = {(f["evidence"], f["dimension"]) for f in json.loads(output)["leaked"]}
    assert found == {("Thandiwe Mahlangu", "person_name"), ("Oluwaseun Adeyemi", "person_name"),
                     ("Siobhán Ní Bhriain", "person_name"), ("Tomasz Wiśniewski", "person_name"),
                     ("Google LLC", "business")}

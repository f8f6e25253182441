"""Turn a task's workspace data into sensitive units: machine pre-labels, people correct in Label Studio.

`prelabel` proposes spans (Presidio plus our recognizers), `workspace` reads files and keeps their
structure, `labelstudio` moves tasks and annotations to and from a Label Studio server, `agreement`
compares annotators, `server` runs a local Label Studio for users without one.
"""

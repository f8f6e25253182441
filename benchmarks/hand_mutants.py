"""Hand-written one-line mutants of the code changed in sessions 19 to 30, each run against the tests that reach its
module (RESULTS.md: "Hand mutants in the code changed in session 19", "… in session 20", … "… in session 25",
"Session 27: hand mutants in session 26's code", "Session 28: … in session 27's code", "Session 29: … in session
28's code", "Session 30: … in session 29's code", "Session 31: … in session 30's code").
Re-checkable: the tree (tracked and untracked files git does not ignore) is copied to a scratch folder once, each
mutant is applied there alone (its `old` text must occur exactly once in its file), the group's tests run with
`pytest -x`, the file is restored. Never touches the checkout. Prints one Markdown row a mutant: killed (by its
first failing test) or survived.

    python benchmarks/hand_mutants.py [--only ID ...] [--before | --new-only] [--scratch DIR]

`--before` leaves out the tests added with the round that planted a mutant (`ADDED_WITH`: session 20's round added
`tests/test_mutation_kills_s20.py`, session 21's `tests/test_mutation_kills_s21.py`, session 22's
`tests/test_mutation_kills_s22.py`, session 23's `tests/test_mutation_kills_s23.py`, session 24's
`tests/test_mutation_kills_s24.py`, session 25's `tests/test_mutation_kills_s25.py`, session 26's
`tests/test_mutation_kills_s26.py`, session 27's `tests/test_mutation_kills_s27.py`, session 28's
`tests/test_mutation_kills_s28.py`, session 29's `tests/test_mutation_kills_s29.py`, session 30's
`tests/test_mutation_kills_s30.py`, session 31's `tests/test_mutation_kills_s31.py`): the score before them;
`--new-only` runs those alone (quick, for the survivors of a `--before` run).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
W8 = "tests/test_new_user_walk_8.py::"
W9 = "tests/test_new_user_walk_9.py::"
W8F = "tests/test_intercept_forms_walk_8.py::"
W7F = "tests/test_intercept_forms_walk_7.py::"
S20 = "tests/test_mutation_kills_s20.py::"
LEARNED = "tests/test_judge_learned_grader.py::"
FORMS_W8 = [W8F + name for name in (
    "test_near_misses_go_out_untouched", "test_text_that_only_looks_like_a_form_is_read_as_it_stands",
    "test_a_cued_rewrite_equals_the_rewrite_of_the_whole_text", "test_every_position_holds_in_every_form",
    "test_an_rtf_file_in_every_file_place_holds")]
JUDGE = [LEARNED + "test_the_local_judge_grades_with_the_learned_grader_unless_told_not_to",
         LEARNED + "test_the_learned_grader_goes_with_the_local_judges_checks"]
COST = [W9 + "test_report_says_why_a_cost_is_unknown_in_the_words_audit_uses",
        W9 + "test_report_on_a_run_says_how_much_of_its_cost_is_unknown_as_run_does",
        W8 + "test_openhands_call_without_usage_says_why_it_is_unpriced",
        S20 + "test_a_rows_unknown_cost_says_how_many_of_its_unpriced_calls_logged_no_usage"]
NAMES = [W9 + "test_a_copyright_lines_holder_is_a_person_to_label_and_to_discover",
         W9 + "test_numbers_in_fictional_ranges_are_the_phones_to_label_and_their_leak_is_scored",
         W9 + "test_a_verb_that_opens_a_sentence_is_no_part_of_the_name_after_it",
         W9 + "test_a_drama_number_ending_in_zeros_is_a_phone_not_a_round_number", "tests/test_annotate_recognizers.py"]

#: group → (file mutated, tests run against each of its mutants)
GROUPS: dict[str, tuple[str, list[str]]] = {
    "R": ("ec2audit/annotate/recognizers/records.py", [
        "tests/test_annotate_recognizers.py", W8 + "test_discovery_finds_record_numbers_and_git_authors",
        W8 + "test_prelabel_reads_the_people_a_workspaces_git_history_names"]),
    "P": ("ec2audit/annotate/recognizers/person.py", [
        "tests/test_annotate_recognizers.py", W8 + "test_discovery_finds_record_numbers_and_git_authors",
        W8 + "test_prelabel_reads_the_people_a_workspaces_git_history_names",
        W8 + "test_prelabel_of_a_small_repository_proposes_its_people_not_its_package",
        W8 + "test_discovery_reads_the_people_of_git_shortlog_and_blame",
        "tests/test_mutation_kills_s22.py::test_a_display_name_of_everyday_words_is_nobodys_even_after_a_given_name"]),
    "G": ("ec2audit/annotate/workspace.py", [
        W8 + "test_prelabel_reads_the_people_a_workspaces_git_history_names",
        W8 + "test_prelabel_of_a_small_repository_proposes_its_people_not_its_package",
        "tests/test_annotate_prelabel.py"]),
    "Z": ("ec2audit/annotate/recognizers/zh_pii.py", ["tests/test_annotate_recognizers.py", "tests/test_zh_names.py"]),
    "L": ("ec2audit/logs/__init__.py", ["tests/test_logs_walk.py", "tests/test_listing.py"]),
    "T": ("ec2audit/logs/listing.py", ["tests/test_logs_walk.py", "tests/test_listing.py"]),
    "B": ("ec2audit/backends.py", ["tests/test_backends.py::test_sigterm_stops_a_pool_with_its_workers"]),
    "X": ("ec2audit/metrics.py", [
        W8 + "test_exposure_by_dimension_is_a_typed_column_polars_reads",
        W8 + "test_a_runs_episodes_table_types_exposure_by_dimension_and_reads_older_records",
        "tests/test_mutation_kills_report.py"]),
    "D": ("ec2audit/console.py", [
        "tests/test_console.py", W8 + "test_an_intercepted_sessions_cost_per_model_reads_to_two_significant_digits"]),
    "S": ("ec2audit/cli/intercept.py", [W8 + "test_a_stopped_interceptor_says_what_this_run_recorded_and_cost",
                                        "tests/test_intercept_cli.py::"
                                        "test_serve_stopped_the_moment_its_banner_names_the_port_stops_cleanly",
                                        "tests/test_new_user_walk_19.py::test_a_stopped_blocking_interceptor_"
                                        "counts_the_requests_it_blocked_apart_from_its_calls",
                                        "tests/test_new_user_walk_19.py::test_a_stopped_redacting_interceptor_"
                                        "says_how_many_values_it_redacted_and_a_cut_streams_tokens_are_unknown"]),
    "O": ("ec2audit/logs/openhands.py", [
        W8 + "test_openhands_last_message_is_priced_from_the_running_totals",
        W8 + "test_openhands_call_without_usage_says_why_it_is_unpriced", "tests/test_logs_more_formats.py"]),
    "Q": ("ec2audit/logs/report.py", [
        W8 + "test_openhands_call_without_usage_says_why_it_is_unpriced", "tests/test_mutation_kills_logs.py"]),
    "M": ("ec2audit/intercept/media.py", [
        "tests/test_intercept_forms_walk_7.py::test_a_value_in_a_pdf_part_is_found_and_the_request_refused",
        "tests/test_intercept_forms_walk_7.py::test_a_pdf_without_units_and_images_and_audio_go_out_named_as_unread",
        "tests/test_intercept_forms_walk_7.py::test_a_file_in_url_safe_base64_is_known_and_read",
        "tests/test_intercept_forms_walk_7.py::test_a_damaged_pdf_is_named_unread_not_dropped",
        "tests/test_intercept_forms_walk_7.py::test_a_text_file_in_every_file_place_holds"]),
    "J": ("ec2audit/intercept/fields.py", [
        "tests/test_intercept_forms_walk_7.py::test_a_value_cut_across_the_parts_of_a_list_is_caught",
        "tests/test_intercept_forms_walk_7.py::test_near_misses_cut_across_parts_and_items_read_apart_go_out_untouched",
        "tests/test_intercept_guard.py::test_a_value_split_across_text_parts_is_caught"]),
}
#: session 21's groups: the code changed in session 20
GROUPS_S21: dict[str, tuple[str, list[str]]] = {
    "LG": ("ec2audit/detect/learned_grader.py", ["tests/test_judge_learned_grader.py"]),
    "LE": ("ec2audit/detect/e5_judge.py", JUDGE),
    "LJ": ("ec2audit/detect/judge.py", JUDGE),
    "LC": ("ec2audit/cli/judge.py", JUDGE),
    "DR": ("ec2audit/detect/digit_regions.py", ["tests/test_detect_digit_regions.py"]),
    "DX": ("ec2audit/detect/exact.py", ["tests/test_detect_digit_regions.py"]),
    "AO": ("ec2audit/detect/exact.py", ["tests/test_detect_alnum_offsets.py", "tests/test_detect_forms_masks_s20.py"]),
    "CP": ("ec2audit/detect/compiled.py", ["tests/test_detect_forms_masks_s20.py"]),
    "PK": ("ec2audit/annotate/recognizers/secrets.py", ["tests/test_detect_forms_masks_s20.py"]),
    "MK": ("ec2audit/detect/forms/masked.py", ["tests/test_detect_forms_masks_s20.py"]),
    "CX": ("ec2audit/logs/codex_cli.py", [W9 + "test_a_codex_cli_rollout_is_read_and_each_response_priced",
                                          W9 + "test_a_codex_cli_line_without_a_payload_object_is_named"]),
    "MZ": ("ec2audit/intercept/media.py", [W8F + name for name in (
        "test_an_office_file_holding_the_record_is_read_and_the_request_refused",
        "test_an_office_file_of_near_misses_goes_out_as_sent",
        "test_an_office_file_the_guard_cannot_read_goes_out_named_as_unread",
        "test_a_docx_value_reads_whole_in_the_extracted_text")]),
    "MP": ("ec2audit/intercept/media.py", [S20 + "test_a_pdfs_metadata_and_a_pdf_any_viewer_opens_are_read",
                                           W7F + "test_a_value_in_a_pdf_part_is_found_and_the_request_refused",
                                           W7F + "test_a_damaged_pdf_is_named_unread_not_dropped"]),
    "VB": ("ec2audit/detect/views.py", ["tests/test_detect_views.py", *FORMS_W8]),
    "RN": ("ec2audit/intercept/redact.py", [W8F + name for name in (
        "test_a_value_as_a_query_parameters_name_is_caught", "test_a_value_in_a_header_name_is_refused_in_both_modes",
        "test_ordinary_names_go_out_untouched")]),
    "PO": ("ec2audit/intercept/policy.py", [W8F + "test_a_value_in_a_header_name_is_refused_in_both_modes"]),
    "CU": ("ec2audit/console.py", ["tests/test_console.py", *COST]),
    "LR": ("ec2audit/logs/report.py", COST),
    "LA": ("ec2audit/logs/audit.py", COST),
    "RS": ("ec2audit/report/summary.py", [*COST, "tests/test_report_browser.py"]),
    "RT": ("ec2audit/report/terminal.py", COST),
    "RH": ("ec2audit/report/html.py", [*COST, "tests/test_report_browser.py"]),
    "RU": ("ec2audit/run/scheduler.py",
           [*COST, "tests/test_new_user_walk_6.py::"
                   "test_a_run_on_a_cloud_model_without_a_price_says_its_cost_is_unknown"]),
    "FM": ("ec2audit/detect/forms/mojibake.py", ["tests/test_detect_views.py", *FORMS_W8]),
    "FR": ("ec2audit/detect/forms/rtf.py", FORMS_W8),
    "FO": ("ec2audit/detect/forms/office_runs.py",
           [*FORMS_W8, W8F + "test_a_docx_value_reads_whole_in_the_extracted_text"]),
    "FL": ("ec2audit/detect/forms/lakh.py", FORMS_W8),
    "FE": ("ec2audit/detect/forms/spoken_emails.py", ["tests/test_detect_forms_spoken_s20.py"]),
    "FS": ("ec2audit/detect/forms/spelled_out.py", ["tests/test_detect_forms_spoken_s20.py"]),
    "FC": ("ec2audit/detect/forms/cjk_dotted_digits.py", ["tests/test_detect_forms_spoken_s20.py"]),
    "PA": ("ec2audit/annotate/recognizers/person.py", NAMES),
    "CT": ("ec2audit/annotate/recognizers/contact.py", NAMES),
    "PL": ("ec2audit/annotate/prelabel.py",
           [W9 + "test_a_name_before_its_possessive_is_labelled_without_it_when_presidio_runs"]),
    "ZR": ("ec2audit/annotate/recognizers/zh_pii.py", [
        "tests/test_zh_names.py",
        S20 + "test_a_name_right_after_a_title_starts_there_whatever_word_jieba_reads_over_it"]),
}
GROUPS.update(GROUPS_S21)
W10 = "tests/test_new_user_walk_10.py::"
W9F = "tests/test_intercept_forms_walk_9.py::"
TIERS = ["tests/test_pricing_service_tier.py",
         W10 + "test_a_claude_code_calls_web_searches_are_billed_beside_its_tokens",
         "tests/test_intercept_proxy.py::test_price_table_tiers_and_usage_shapes",
         "tests/test_intercept_proxy.py::test_prices_of_the_major_providers_from_litellm_and_null_for_unknown"]
STOPPED = [W10 + "test_a_stopped_interceptor_says_why_a_cost_is_unknown_in_the_words_audit_uses",
           "tests/test_pricing_service_tier.py::test_the_proxy_prices_each_call_at_the_tier_that_served_it"]
FORMS_W9 = [W9F + name for name in (
    "test_near_misses_go_out_untouched", "test_text_that_only_looks_like_a_form_is_read_as_it_stands",
    "test_a_utf16_file_read_as_utf8_holds", "test_an_ipv6_unit_spelled_another_way_holds",
    "test_another_address_goes_out_as_sent", "test_a_cued_rewrite_equals_the_rewrite_of_the_whole_text",
    "test_every_position_holds_in_every_form")]
PEOPLE = ["tests/test_new_user_walk_10.py", "tests/test_annotate_recognizers.py"]
#: session 22's groups: the code changed in session 21
GROUPS_S22: dict[str, tuple[str, list[str]]] = {
    "SU": ("ec2audit/intercept/usage.py", TIERS),
    "SP": ("ec2audit/intercept/pricing.py", TIERS),
    "SI": ("ec2audit/cli/intercept.py", STOPPED),
    "SR": ("ec2audit/logs/report.py", ["tests/test_pricing_service_tier.py"]),
    "SA": ("ec2audit/logs/audit.py", TIERS),
    "KC": ("ec2audit/detect/compiled.py", ["tests/test_detect_compile_cache.py"]),
    "KM": ("ec2audit/detect/matchers.py", ["tests/test_detect_compile_cache.py"]),
    "BC": ("ec2audit/detect/cascade.py", ["tests/test_detect_batch.py", "tests/test_intercept_guard.py::"
                                          "test_a_value_split_across_text_parts_is_caught"]),
    "BQ": ("ec2audit/detect/cues.py", ["tests/test_detect_batch.py",
                                       W9F + "test_a_cued_rewrite_equals_the_rewrite_of_the_whole_text"]),
    "RC": ("ec2audit/intercept/redact.py",
           ["tests/test_intercept_placing.py", "tests/test_intercept_office_unread.py"]),
    "JS": ("ec2audit/intercept/fields.py", [W9F + "test_an_array_spelling_the_record_in_json_text_holds",
                                            W9F + "test_an_array_spelling_a_near_miss_goes_out_as_sent"]),
    "MM": ("ec2audit/intercept/media.py", ["tests/test_intercept_office_unread.py"]),
    "NS": ("ec2audit/detect/forms/scientific.py", FORMS_W9),
    "NG": ("ec2audit/detect/forms/rtf_groups.py", FORMS_W9),
    "NC": ("ec2audit/detect/forms/rtf_code_pages.py", FORMS_W9),
    "NB": ("ec2audit/detect/forms/byte_lists.py", FORMS_W9),
    "ND": ("ec2audit/detect/forms/double_percent.py", FORMS_W9),
    "NU": ("ec2audit/detect/forms/utf16_nuls.py", FORMS_W9),
    "NI": ("ec2audit/detect/forms/ipv6.py", FORMS_W9),
    "NO": ("ec2audit/detect/forms/overstrike.py", FORMS_W9),
    "AP": ("ec2audit/annotate/recognizers/person.py", PEOPLE),
    "AC": ("ec2audit/annotate/recognizers/contact.py", PEOPLE),
    "AL": ("ec2audit/annotate/prelabel.py", PEOPLE),
    "AW": ("ec2audit/annotate/workspace.py", PEOPLE),
    "AD": ("ec2audit/logs/discovered.py", PEOPLE),
    "LV": ("ec2audit/detect/learned_grader.py", ["tests/test_judge_learned_grader.py"]),
}
GROUPS.update(GROUPS_S22)
W11 = ["tests/test_new_user_walk_11.py"]
F11 = "tests/test_intercept_forms_walk_11.py::"
FORMS_11 = [F11 + name for name in (
    "test_near_misses_go_out_untouched", "test_a_name_cut_inside_a_character_holds",
    "test_an_ipv6_unit_after_an_equals_sign_holds", "test_every_position_holds_in_every_form")]
CHUNKS = [F11 + name for name in (
    "test_a_value_cut_into_an_arrays_chunks_holds", "test_chunks_of_a_near_miss_go_out_as_sent",
    "test_an_arrays_separate_words_are_no_value", "test_a_value_cut_across_three_messages_holds",
    "test_a_value_two_messages_hold_is_found_once_in_a_run_of_three",
    "test_three_messages_of_a_near_miss_go_out_as_sent")]
#: session 23's groups: the code changed in session 22
GROUPS_S23: dict[str, tuple[str, list[str]]] = {
    "TU": ("ec2audit/intercept/usage.py", [*W11, "tests/test_pricing_service_tier.py"]),
    "TA": ("ec2audit/logs/audit.py", W11),
    "TS": ("ec2audit/report/summary.py", W11),
    "BD": ("ec2audit/intercept/dialects.py", [*W11, "tests/test_intercept_forms_walk_6.py"]),
    "BH": ("ec2audit/logs/openai_log.py", W11),
    "VX": ("ec2audit/intercept/pricing.py", W11),
    "OB": ("ec2audit/intercept/usage.py", [*W11, "tests/test_new_user_walk_12.py"]),
    "GZ": ("ec2audit/logs/__init__.py", W11),
    "GE": ("ec2audit/logs/encoding.py", W11),
    "GR": ("ec2audit/logs/report.py", W11),
    "WS": ("ec2audit/annotate/workspace.py", [*W11, "tests/test_annotate_prelabel.py"]),
    "WB": ("ec2audit/annotate/recognizers/birth.py", [*W11, "tests/test_annotate_recognizers.py"]),
    "WU": ("ec2audit/annotate/recognizers/business.py", [*W11, "tests/test_annotate_recognizers.py"]),
    "WC": ("ec2audit/annotate/recognizers/contact.py", [*W11, "tests/test_annotate_recognizers.py"]),
    "WP": ("ec2audit/annotate/recognizers/person.py", [*W11, "tests/test_annotate_recognizers.py"]),
    "JC": ("ec2audit/intercept/fields.py", [*CHUNKS, "tests/test_intercept_placing.py"]),
    "JR": ("ec2audit/intercept/redact.py", [*CHUNKS, "tests/test_intercept_placing.py"]),
    "FX": ("ec2audit/detect/forms/byte_lists.py", FORMS_11),
    "FW": ("ec2audit/detect/forms/word_diff.py", FORMS_11),
    "FF": ("ec2audit/detect/forms/format_list.py", FORMS_11),
    "FN": ("ec2audit/detect/forms/encoded_words.py", FORMS_11),
    "FQ": ("ec2audit/detect/forms/quoted_printable.py", FORMS_11),
    "WH": ("ec2audit/run/warm.py", ["tests/test_run_warm.py"]),
    "SV": ("ec2audit/cli/intercept.py", ["tests/test_intercept_cli.py::test_serve_on_a_taken_port_says_so_in_one_line",
                                         "tests/test_intercept_cli.py::"
                                         "test_serve_survives_kill_9_and_keeps_keys_out_of_store_and_logs",
                                         "tests/test_intercept_cli.py::"
                                         "test_serve_stopped_the_moment_its_banner_names_the_port_stops_cleanly"]),
    "ST": ("ec2audit/intercept/server.py", ["tests/test_intercept_lanes.py"]),
    "LM": ("ec2audit/localmodel.py", ["tests/test_localmodel.py"]),
    "CL": ("ec2audit/cli/__init__.py", ["tests/test_cli_lazy.py"]),
    "KP": ("ec2audit/detect/compiled.py", ["tests/test_detect_compile_cache.py",
                                           "tests/test_detect_forms_masks_s20.py"]),
    "NP": ("ec2audit/detect/cues.py", ["tests/test_cli_lazy.py", "tests/test_detect_batch.py"]),
    "VC": ("ec2audit/detect/value_checks.py", ["tests/test_value_checks.py"]),
    "DC": ("ec2audit/detect/descriptions.py", ["tests/test_judge_descriptions.py",
                                               "tests/test_judge_learned_grader.py"]),
    "LW": ("ec2audit/detect/learned_grader.py", ["tests/test_judge_descriptions.py",
                                                 "tests/test_judge_learned_grader.py"]),
}
GROUPS.update(GROUPS_S23)
W12 = ["tests/test_new_user_walk_12.py"]
W13 = ["tests/test_new_user_walk_13.py"]
FORMS_12 = ["tests/test_intercept_forms_walk_12.py"]
#: session 24's groups: the code changed in session 23
GROUPS_S24: dict[str, tuple[str, list[str]]] = {
    "YB": ("ec2audit/logs/batch_api.py", W12),
    "YC": ("ec2audit/logs/cline.py", W12),
    "YO": ("ec2audit/intercept/usage.py", W12),
    "YF": ("ec2audit/logs/langfuse.py", W12),
    "YH": ("ec2audit/logs/openai_log.py", W12),
    "YN": ("ec2audit/intercept/app.py", W12),
    "YR": ("ec2audit/report/summary.py", W13),
    "YT": ("ec2audit/report/terminal.py", W13),
    "YM": ("ec2audit/metrics.py", W13),
    # metrics.token_total, shared by `intercept serve`'s summary, `intercept audit --out` and a run's episodes
    "TT": ("ec2audit/metrics.py", ["tests/test_new_user_walk_19.py::test_a_stopped_redacting_interceptor_"
                                   "says_how_many_values_it_redacted_and_a_cut_streams_tokens_are_unknown",
                                   "tests/test_new_user_walk_20.py::"
                                   "test_a_runs_cloud_tokens_are_unknown_where_a_stream_was_cut_not_counted_0",
                                   "tests/test_mutation_kills_s28.py::test_a_stopped_interceptor_counts_a_failed_calls_"
                                   "tokens_as_none_and_names_only_blocked_requests"]),
    "YI": ("ec2audit/cli/intercept.py", W13),
    "YA": ("ec2audit/acebench.py", [*W13, "tests/test_tasks_acebench.py"]),
    "YK": ("ec2audit/annotate/recognizers/secrets.py", W13),
    "YW": ("ec2audit/annotate/workspace.py", [*W13, "tests/test_annotate_prelabel.py"]),
    "YL": ("ec2audit/annotate/prelabel.py", [*W13, "tests/test_annotate_prelabel.py"]),
    "YX": ("ec2audit/detect/forms/hex_strings.py", [*FORMS_12, "tests/test_detect_form_cues.py"]),
    "YU": ("ec2audit/detect/forms/url_plus.py", [*FORMS_12, "tests/test_detect_form_cues.py"]),
    "YV": ("ec2audit/detect/views.py", [*FORMS_12, "tests/test_detect_views.py", "tests/test_detect_table_cache.py"]),
    "YS": ("ec2audit/intercept/redact.py", FORMS_12),
    "YE": ("ec2audit/detect/compiled.py", ["tests/test_detect_table_cache.py", "tests/test_detect_compile_cache.py"]),
    "YQ": ("ec2audit/detect/value_checks.py", ["tests/test_value_checks.py"]),
    "YG": ("ec2audit/detect/learned_grader.py", ["tests/test_judge_descriptions.py",
                                                 "tests/test_judge_learned_grader.py"]),
    "YD": ("ec2audit/run/scheduler.py", ["tests/test_run_openclaw.py::"
                                         "test_ctrl_c_stops_openclaw_and_leaves_a_consistent_run_folder"]),
    "YZ": ("ec2audit/backends.py", ["tests/test_backends.py::test_sigterm_stops_a_pool_with_its_workers"]),
    "YJ": ("ec2audit/localmodel.py", ["tests/test_localmodel.py"]),
    "YY": ("ec2audit/cli/annotate.py", ["tests/test_annotate_labelstudio.py::"
                                        "test_serve_stopped_the_moment_its_banner_names_the_server_stops_both"]),
}
GROUPS.update(GROUPS_S24)
W14 = "tests/test_new_user_walk_14.py::"
S24 = "tests/test_mutation_kills_s24.py::"
W15 = ["tests/test_new_user_walk_15.py"]
F13 = "tests/test_intercept_forms_walk_13.py::"
FORMS_S24 = ["tests/test_detect_forms_s24.py"]
CLINE = [W14 + name for name in (
    "test_a_cline_task_on_an_openai_compatible_provider_counts_its_cached_tokens_once",
    "test_a_cline_task_on_ollama_stays_on_the_device",
    "test_a_cline_task_planned_on_claude_and_acted_on_ollama_has_one_call_on_each")] + [
    S24 + "test_a_cline_task_names_its_last_model_and_tells_cache_reads_from_writes"]
BATCH = [W14 + "test_a_batchs_input_and_output_in_two_folders_are_paired_and_a_lone_output_is_named",
         S24 + "test_a_batch_output_answers_the_one_input_holding_all_of_its_ids"]
VERCEL = [W14 + "test_a_vercel_ai_sdk_calls_cache_is_priced_at_the_cache_rates",
          W14 + "test_vercel_ai_sdk_5_cache_reads_are_priced_as_each_provider_counts_them"]
MULTIPART = [F13 + name for name in (
    "test_a_value_in_a_multipart_upload_is_held", "test_a_large_batch_file_holds",
    "test_the_audio_beside_a_prompt_is_named_unread", "test_a_part_the_guard_cannot_read_is_refused_and_named",
    "test_a_boundary_holding_a_value_is_not_forwarded", "test_a_truncated_form_is_refused",
    "test_a_form_without_a_value_is_forwarded_as_sent")]
TOKEN_IDS = [F13 + "test_a_value_sent_as_token_ids_is_held"]
#: session 25's groups: the code changed in session 24
GROUPS_S25: dict[str, tuple[str, list[str]]] = {
    "UB": ("ec2audit/logs/batch_api.py", BATCH),
    "UA": ("ec2audit/logs/audit.py", BATCH),
    "UC": ("ec2audit/logs/cline.py", CLINE),
    "UV": ("ec2audit/logs/otel_genai.py", VERCEL),
    "UX": ("ec2audit/logs/codex_cli.py", [W14 + "test_a_codex_oss_session_stays_on_the_device"]),
    "UI": ("ec2audit/logs/classify.py", [W14 + "test_an_inspect_eval_of_a_transformers_model_on_the_machine_is_edge"]),
    "UF": ("ec2audit/logs/langfuse.py",
           [W14 + "test_a_langfuse_generation_of_langchains_ollama_model_stays_on_the_device"]),
    "UP": ("ec2audit/intercept/pricing.py",
           [W14 + "test_a_together_or_fireworks_model_named_with_its_organisation_is_priced_under_its_provider"]),
    "US": ("ec2audit/cli/intercept.py",
           [W14 + "test_intercept_serve_run_in_process_gives_the_callers_signal_handlers_back"]),
    "UD": ("ec2audit/intercept/form_data.py", MULTIPART),
    "UN": ("ec2audit/intercept/app.py", MULTIPART),
    "UT": ("ec2audit/intercept/tokens.py", TOKEN_IDS),
    "UJ": ("ec2audit/intercept/fields.py", TOKEN_IDS),
    "UR": ("ec2audit/detect/forms/reg_hex.py", ["tests/test_intercept_forms_walk_13.py"]),
    "UL": ("ec2audit/detect/forms/code_point_lists.py",
           ["tests/test_intercept_forms_walk_13.py", "tests/test_detect_forms_s24.py::"
                                                     "test_numbers_run_together_in_a_csv_row_are_not_read_as_code_points"]),
    "UO": ("ec2audit/detect/forms/coordinates.py", FORMS_S24),
    "UE": ("ec2audit/detect/forms/separators.py", FORMS_S24),
    "UU": ("ec2audit/detect/forms/subnets.py", FORMS_S24),
    "UH": ("ec2audit/detect/forms/cjk_spacing.py", FORMS_S24),
    "UCD": ("ec2audit/detect/compiled.py", FORMS_S24),
    "UK": ("ec2audit/annotate/recognizers/secrets.py", W15),
    "UG": ("ec2audit/annotate/recognizers/network.py", W15),
    "UQ": ("ec2audit/annotate/recognizers/birth.py", W15),
    "UY": ("ec2audit/annotate/recognizers/health.py", W15),
    "UZ": ("ec2audit/annotate/recognizers/location.py", W15),
    "UW": ("ec2audit/annotate/workspace.py", W15),
    "UM": ("ec2audit/annotate/prelabel.py", W15),
    "UDH": ("ec2audit/logs/discovered.py", W15),
    "VS": ("ec2audit/detect/value_checks.py", [
        "tests/test_value_checks.py::test_another_side_or_strength_is_contrary_and_not_graded",
        "tests/test_value_checks.py::test_the_same_side_or_strength_or_none_stated_is_not_contrary"]),
    "UGR": ("ec2audit/detect/learned_grader.py", [
        "tests/test_judge_learned_grader.py::test_a_text_that_finds_nothing_about_a_condition_is_left_for_review",
        "tests/test_judge_learned_grader.py::test_a_linear_grader_reads_its_weights_and_a_wrong_length_is_refused"]),
}
GROUPS.update(GROUPS_S25)
W14F = "tests/test_intercept_forms_walk_14.py::"
W16 = ["tests/test_new_user_walk_16.py"]
FORMS_S25 = ["tests/test_detect_forms_s25.py"]
#: walk 14's tests of the APIs outside /v1 (OUTSIDE), Ollama's NDJSON streams, Gemini's uploads, URL-encoded bodies
OUTSIDE = [W14F + name for name in (
    "test_a_value_in_an_api_outside_v1_is_held", "test_an_api_outside_v1_is_recorded_as_its_dialect",
    "test_a_gemini_v1beta_answer_has_its_usage_and_cost_recorded", "test_intercept_audit_reads_the_apis_outside_v1",
    "test_a_request_outside_v1_without_a_value_is_forwarded_as_sent")]
NDJSON = [W14F + "test_an_ollama_ndjson_stream_is_restored_line_by_line_and_its_tokens_recorded"]
UPLOADS = [W14F + name for name in (
    "test_a_value_in_a_gemini_multipart_upload_is_held", "test_a_gemini_upload_without_a_value_is_forwarded_as_sent",
    "test_a_value_in_a_gemini_resumable_upload_is_held",
    "test_a_gemini_resumable_upload_without_a_value_is_forwarded_as_sent",
    "test_a_value_cut_across_two_chunks_of_a_resumable_upload_is_held",
    "test_a_resumable_upload_chunk_at_an_offset_not_held_is_refused")]
URLENCODED = [W14F + name for name in (
    "test_a_value_in_a_urlencoded_body_is_held", "test_a_urlencoded_body_without_a_value_is_forwarded_as_sent",
    "test_a_urlencoded_body_that_is_not_utf8_is_refused")]
ROOTS_S25 = [*OUTSIDE, *NDJSON, *UPLOADS, *URLENCODED]
#: walk 14's JSON strings a line (`jq -a`), which `code_point_lists` and `concatenation` were changed for
LINES_S25 = [W14F + name for name in (
    "test_the_reader_recovers_every_form_unguarded", "test_every_position_holds_in_every_form",
    "test_near_misses_go_out_untouched")] + ["tests/test_detect_form_cues.py"]
WITHHELD = ["tests/test_judge_learned_grader.py::" + name for name in (
    "test_a_text_that_finds_nothing_about_a_condition_is_left_for_review",
    "test_a_pair_without_the_value_s_own_evidence_is_never_graded_on_the_grader_s_reading",
    "test_a_number_one_slip_away_or_a_placeholder_in_the_value_s_slot_is_never_graded",
    "test_a_list_whose_entity_s_row_states_none_of_the_finding_is_another_person_s")]
#: session 26's groups: the code changed in session 25
GROUPS_S26: dict[str, tuple[str, list[str]]] = {
    "EA": ("ec2audit/detect/forms/acronyms.py", FORMS_S25),
    "EAT": ("ec2audit/detect/forms/address_translations.py", FORMS_S25),
    "EV": ("ec2audit/detect/forms/variants.py", FORMS_S25),
    "EDT": ("ec2audit/detect/forms/dates.py", FORMS_S25),
    "ESN": ("ec2audit/detect/forms/surnames.py", FORMS_S25),
    "EI": ("ec2audit/detect/forms/initials.py", FORMS_S25),
    "ES": ("ec2audit/detect/forms/separators.py", FORMS_S25),
    "ECF": ("ec2audit/detect/forms/context_fragments.py", FORMS_S25),
    "EN": ("ec2audit/detect/normalize.py", FORMS_S25),
    "ECP": ("ec2audit/detect/forms/code_point_lists.py", LINES_S25),
    "ECC": ("ec2audit/detect/forms/concatenation.py", LINES_S25),
    "EG": ("ec2audit/detect/learned_grader.py", WITHHELD),
    "EC": ("ec2audit/detect/value_checks.py",
           ["tests/test_value_checks.py::test_an_amount_per_month_is_the_same_amount_per_year", *WITHHELD]),
    "EP": ("ec2audit/intercept/app.py", [*ROOTS_S25, "tests/test_intercept_upload_seams.py"]),
    "ED": ("ec2audit/intercept/dialects.py", [*OUTSIDE, *NDJSON]),
    "EF": ("ec2audit/intercept/form_data.py", [*URLENCODED, *UPLOADS, *MULTIPART]),
    "ER": ("ec2audit/intercept/redact.py", NDJSON),
    "ESS": ("ec2audit/intercept/sse.py", NDJSON),
    "EST": ("ec2audit/intercept/store.py", NDJSON),
    "EPY": ("ec2audit/payloads.py", [W14F + "test_intercept_audit_reads_the_apis_outside_v1"]),
    "ELA": ("ec2audit/logs/audit.py", W16),
    "EL": ("ec2audit/logs/__init__.py", [*W16, *BATCH]),
    "EB": ("ec2audit/logs/batch_api.py", [*W16, *BATCH]),
    "EDH": ("ec2audit/logs/discovered.py", W16),
    "EO": ("ec2audit/logs/otel_genai.py", [*W16, *VERCEL]),
    "EPL": ("ec2audit/annotate/prelabel.py", W16),
    "ECT": ("ec2audit/annotate/recognizers/contact.py", W16),
    "EH": ("ec2audit/annotate/recognizers/health.py", W16),
    "EK": ("ec2audit/annotate/recognizers/secrets.py", W16),
    "EW": ("ec2audit/annotate/workspace.py", W16),
    "ECA": ("ec2audit/cli/audit.py", W16),
    "ERP": ("ec2audit/report/summary.py", W16),
    "ERS": ("ec2audit/run/scheduler.py",
            ["tests/test_run_openclaw.py::test_ctrl_c_stops_openclaw_and_leaves_a_consistent_run_folder"]),
}
GROUPS.update(GROUPS_S26)
W17 = "tests/test_new_user_walk_17.py::"
W18 = "tests/test_new_user_walk_18.py::"
F15 = "tests/test_intercept_forms_walk_15.py::"
FORMS_S26 = ["tests/test_detect_forms_s26.py"]
#: walk 17's AceBench cloud audit tests, its Gemini CLI session, Helicone's exports, files with a byte order mark
ACEBENCH_AUDIT = [W17 + name for name in (
    "test_acebenchs_cloud_audit_is_read_per_run_of_its_task_and_priced",
    "test_acebenchs_grader_log_beside_a_run_is_named_not_audited_as_the_agents",
    "test_an_acebench_cloud_only_runs_transcript_is_that_run_of_its_task")]
GEMINI_CLI = [W17 + "test_a_gemini_cli_session_is_read_priced_and_counted_once_in_its_resumed_copy"]
HELICONE = [W17 + "test_a_helicone_export_keeps_its_sessions_and_times",
            W17 + "test_a_helicone_json_export_is_read_and_its_trailing_comma_said_in_one_line"]
BOM = W17 + "test_files_saved_with_a_byte_order_mark_are_read"
ACEBENCH_TASKS = [W17 + "test_an_acebench_tasks_missing_workspace_folder_is_named_as_missing",
                  W17 + "test_an_acebench_hybrid_tasks_score_is_split_between_its_checklist_and_its_judge", BOM]
#: walk 18's tables named in upper case, units kept in another format or with a key misspelled
JSONL_NAMES = [W18 + "test_findings_written_under_an_upper_case_jsonl_name_are_json_lines_and_reported",
               "tests/test_backends.py::test_a_local_audit_writes_its_findings_a_few_rows_at_a_time_the_same_bytes"]
UNITS_FILES = [W18 + "test_units_kept_in_another_table_format_are_named_as_that_format",
               W18 + "test_a_units_line_with_a_key_misspelled_names_the_key_it_has", BOM]
#: walk 15's held uploads bounded, errors mid-stream, Azure OpenAI's paths, base64 and hex bytes in its cells
HELD = [F15 + name for name in (
    "test_an_abandoned_upload_is_dropped_past_its_age_and_a_later_chunk_refused",
    "test_held_chunks_over_the_byte_bound_drop_the_oldest_upload",
    "test_uploads_within_the_bounds_are_held_and_forwarded_whole")]
STREAM_ERRORS = [F15 + "test_an_error_sent_mid_stream_is_the_records_error",
                 F15 + "test_a_stream_without_an_error_has_none_recorded"]
AZURE = [F15 + "test_a_value_in_an_azure_openai_request_is_held",
         F15 + "test_an_azure_request_without_a_value_is_forwarded_as_sent"]
BASE64_S26 = [F15 + f"{test}[redact-{form}]" for test in (
    "test_every_position_holds_in_every_form", "test_near_misses_go_out_untouched")
    for form in ("base64_without_padding", "base64url_unpadded")] + [
    F15 + "test_a_near_text_goes_out_untouched[redact-random_base64]"] + [
    "tests/test_detect_views.py::" + name for name in (
        "test_base64_and_hex_decode_only_their_runs_what_their_regexes_decode",
        "test_base64_of_binary_stays_unread_however_long", "test_base64_of_utf16_text_is_read",
        "test_form_values_and_passport_fields_found_from_their_cues_as_by_their_regexes")] + [
    "tests/test_detect_forms_s26.py::test_a_date_in_a_machine_readable_zone_is_the_value",
    "tests/test_detect_forms_s26.py::test_another_date_in_a_machine_readable_zone_is_no_hit"]
SPACED_HEX = [F15 + f"{test}[redact-{form}]" for test in (
    "test_every_position_holds_in_every_form", "test_near_misses_go_out_untouched")
    for form in ("colon_hex", "go_spaced_hex", "od_hex_bytes")] + [
    F15 + f"test_a_near_text_goes_out_untouched[redact-{near}]" for near in (
        "fingerprint", "mac_address", "two_digit_table")] + ["tests/test_detect_form_cues.py"]
#: session 27's groups: the code changed in session 26
GROUPS_S27: dict[str, tuple[str, list[str]]] = {
    "HA": ("ec2audit/logs/acebench_audit.py", ACEBENCH_AUDIT),
    "HOC": ("ec2audit/logs/openclaw_jsonl.py", ACEBENCH_AUDIT),
    "HL": ("ec2audit/logs/__init__.py", [*ACEBENCH_AUDIT, *GEMINI_CLI]),
    "HG": ("ec2audit/logs/gemini_cli.py", GEMINI_CLI),
    "HO": ("ec2audit/logs/openai_log.py", HELICONE),
    "HBA": ("ec2audit/logs/base.py", HELICONE),
    "HF": ("ec2audit/files.py", JSONL_NAMES),
    "HAU": ("ec2audit/logs/audit.py", JSONL_NAMES),
    "HB": ("ec2audit/logs/batch_api.py",
           [W18 + "test_a_batch_saved_under_upper_case_names_is_paired_and_priced", *BATCH]),
    "HU": ("ec2audit/units.py", UNITS_FILES),
    "HAB": ("ec2audit/acebench.py", ACEBENCH_TASKS),
    "HUP": ("ec2audit/intercept/uploads.py", [*HELD, *UPLOADS]),
    "HP": ("ec2audit/intercept/app.py", [*HELD, *STREAM_ERRORS, "tests/test_intercept_upload_seams.py"]),
    "HSM": ("ec2audit/intercept/seams.py", ["tests/test_intercept_upload_seams.py"]),
    "HSS": ("ec2audit/intercept/sse.py", STREAM_ERRORS),
    "HD": ("ec2audit/intercept/dialects.py", AZURE),
    "HV": ("ec2audit/detect/views.py", BASE64_S26),
    "HX": ("ec2audit/detect/forms/spaced_hex.py", SPACED_HEX),
    "HBT": ("ec2audit/detect/forms/blood_types.py", FORMS_S26),
    "HNV": ("ec2audit/detect/forms/near_verbatim.py", FORMS_S26),
    "HBY": ("ec2audit/detect/forms/birth_years.py", FORMS_S26),
    "HCN": ("ec2audit/detect/forms/cjk_capital_numerals.py", FORMS_S26),
    "HGT": ("ec2audit/detect/forms/graded_terms.py", FORMS_S26),
    "HC": ("ec2audit/detect/compiled.py", ["tests/test_detect_pinyin_released.py", *FORMS_S26]),
    "HAT": ("ec2audit/detect/forms/address_translations.py", ["tests/test_detect_pinyin_released.py"]),
    "HE": ("ec2audit/detect/exact.py", FORMS_S26),
    "HS": ("ec2audit/detect/forms/separators.py", FORMS_S26),
    "HPL": ("ec2audit/detect/forms/places.py", FORMS_S26),
}
GROUPS.update(GROUPS_S27)
W17F = "tests/test_intercept_forms_walk_17.py::"
W19 = "tests/test_new_user_walk_19.py::"
FORMS_S27 = ["tests/test_detect_forms_s27.py"]
#: walk 17's seams read in every decoded view and in `complete`'s order, its redirects, charsets and numbers
SEAMS_S27 = [W17F + "test_a_value_cut_in_a_decoded_view_or_inside_a_character_refuses_the_second_part",
             W17F + "test_complete_in_another_order_than_the_parts_came_is_audited_seam_by_seam",
             "tests/test_intercept_upload_seams.py::test_a_value_cut_across_two_upload_parts_refuses_the_second",
             "tests/test_mutation_kills_s27.py::test_a_value_across_a_seam_found_at_the_blocking_grade_exactly_is_"
             "refused"]
CHARSETS_S27 = [W17F + "test_a_file_part_is_read_in_the_charset_it_declares",
                W17F + "test_a_urlencoded_body_is_read_in_the_charset_it_declares",
                W17F + "test_a_value_cut_in_a_decoded_view_or_inside_a_character_refuses_the_second_part"]
NUMBERS_S27 = [W17F + "test_a_number_is_read_as_it_was_written",
               W17F + "test_a_number_with_a_vast_exponent_is_read_as_written_without_writing_it_out"]
#: walk 19's tokens unknown, the stop summary's blocked and redacted, the store as payloads, times in UTC
TOKENS_S27 = [W19 + "test_tokens_of_calls_that_logged_no_usage_are_unknown_not_zero"]
STOP_S27 = [W19 + "test_a_stopped_blocking_interceptor_counts_the_requests_it_blocked_apart_from_its_calls",
            W19 + "test_a_stopped_redacting_interceptor_says_how_many_values_it_redacted_and_a_cut_streams_tokens_are_"
                  "unknown"]
SERIAL_S27 = ["tests/test_backends.py::test_a_serial_audit_writes_its_calls_and_findings_as_it_goes_the_same_results",
              *TOKENS_S27]
ACEBENCH_S27 = [W17 + name for name in (
    "test_acebenchs_cloud_audit_is_read_per_run_of_its_task_and_priced",
    "test_acebenchs_cloud_audit_copied_out_of_its_container_names_no_task_from_its_folders")]
#: session 28's groups: the code changed in session 27
GROUPS_S28: dict[str, tuple[str, list[str]]] = {
    "ISM": ("ec2audit/intercept/seams.py", SEAMS_S27),
    "IFD": ("ec2audit/intercept/form_data.py", CHARSETS_S27),
    "IFL": ("ec2audit/intercept/fields.py", NUMBERS_S27),
    "IAP": ("ec2audit/intercept/app.py", [*SEAMS_S27, W17F + "test_the_model_lists_redirect_is_handled_as_a_posts",
                                          W17F + "test_a_redirect_followed_with_a_get_never_takes_the_headers_past_"
                                                 "the_guard",
                                          W17F + "test_an_sdk_client_following_a_302_comes_back_to_the_proxy",
                                          "tests/test_intercept_upload_seams.py"]),
    "IAU": ("ec2audit/logs/audit.py", SERIAL_S27),
    "IAB": ("ec2audit/logs/acebench_audit.py", ACEBENCH_S27),
    "ILI": ("ec2audit/logs/__init__.py", ACEBENCH_S27),
    "IRP": ("ec2audit/logs/report.py",
            [*TOKENS_S27, W19 + "test_the_time_of_a_first_call_is_shown_in_utc_whatever_offset_the_log_wrote"]),
    "ICO": ("ec2audit/console.py", TOKENS_S27),
    "ICI": ("ec2audit/cli/intercept.py", STOP_S27),
    "IRS": ("ec2audit/report/summary.py",
            [W19 + "test_report_reads_the_evidence_of_an_intercept_audit_from_the_store_it_audited"]),
    "IRH": ("ec2audit/report/html.py", TOKENS_S27),
    "IRT": ("ec2audit/report/terminal.py", [*TOKENS_S27, W19 + "test_intercept_audit_calls_no_fragment_a_leaked_unit"]),
    "IKP": ("ec2audit/detect/forms/keyed_pins.py", FORMS_S27),
    "IRA": ("ec2audit/detect/forms/ratios.py", FORMS_S27),
    "IDP": ("ec2audit/detect/forms/digit_prefixes.py", FORMS_S27),
    "ICV": ("ec2audit/detect/forms/conversions.py", FORMS_S27),
    "IDT": ("ec2audit/detect/forms/dates.py", FORMS_S27),
    "ICF": ("ec2audit/detect/forms/context_fragments.py", FORMS_S27),
    "ISE": ("ec2audit/detect/forms/spoken_emails.py", FORMS_S27),
    "IAD": ("ec2audit/detect/forms/addresses.py", FORMS_S27),
    "IIN": ("ec2audit/detect/forms/initials.py", FORMS_S27),
    "IMA": ("ec2audit/detect/forms/masked.py", FORMS_S27),
    "INV": ("ec2audit/detect/forms/near_verbatim.py", FORMS_S27),
    "IPL": ("ec2audit/detect/forms/places.py", FORMS_S27),
    "ISN": ("ec2audit/detect/forms/surnames.py", FORMS_S27),
    "ILR": ("ec2audit/detect/learned_grader.py",
            ["tests/test_judge_splits_head.py", "tests/test_judge_learned_grader.py"]),
    "IE": ("ec2audit/detect/e5_judge.py", ["tests/test_judge_splits_head.py"]),
}
GROUPS.update(GROUPS_S28)
W18F = "tests/test_intercept_forms_walk_18.py::"
W20 = "tests/test_new_user_walk_20.py::"
FORMS_S28 = ["tests/test_detect_forms_s28.py"]
FORMS_3940 = ["tests/test_detect_forms_3940.py"]
#: walk 18's guard tests: packed files, word dumps, GBK percent runs, MIME charsets, stored prompts
PACKED_S28 = [W18F + "test_a_compressed_or_packed_file_is_read_in_every_file_place",
              "tests/test_mutation_kills_s21.py::test_a_document_inside_a_zip_is_read_and_xml_declaring_entities_is_"
              "refused"]
DUMPS_S28 = [W18F + "test_a_dump_in_words_or_after_a_hex_offset_is_read", "tests/test_detect_forms_walk_4.py"]
#: walk 20's: one exposure for an episode naming no task, tokens unknown where a stream was cut
NO_TASK_S28 = [W20 + "test_one_episode_naming_no_task_has_one_exposure_in_intercept_audit_report_and_audit"]
RUN_TOKENS_S28 = [W20 + "test_a_runs_cloud_tokens_are_unknown_where_a_stream_was_cut_not_counted_0"]
DEDUP_S28 = [W20 + "test_the_same_litellm_calls_in_two_exports_are_counted_once",
             W20 + "test_a_langfuse_generation_in_its_observations_export_and_its_traces_export_is_one_call"]
GRADER_S28 = ["tests/test_judge_learned_grader.py::test_a_number_with_another_unit_or_a_diagnosis_found_not_to_fit_"
              "is_never_graded", "tests/test_judge_learned_grader.py::test_a_text_that_finds_nothing_about_a_condition_"
              "is_left_for_review"]
ICD_S28 = [W20 + "test_a_medical_word_in_a_list_item_of_its_own_is_no_condition_by_its_neighbours_health_words",
           "tests/test_annotate_recognizers.py"]
#: session 29's groups: the code changed in session 28
GROUPS_S29: dict[str, tuple[str, list[str]]] = {
    "QMD": ("ec2audit/intercept/media.py", PACKED_S28),
    "QSH": ("ec2audit/intercept/shape.py",
            [W18F + "test_a_stored_prompts_variables_are_read_and_forwarded"]),
    "QVW": ("ec2audit/detect/views.py", [W18F + "test_a_name_percent_encoded_in_gbk_is_read"]),
    "QDU": ("ec2audit/detect/forms/dumps.py", DUMPS_S28),
    "QMB": ("ec2audit/detect/forms/mime_bodies.py",
            [W18F + "test_a_mail_body_is_read_in_the_charset_its_headers_declare"]),
    "QLR": ("ec2audit/detect/forms/lab_results.py", FORMS_S28),
    "QPP": ("ec2audit/detect/forms/plate_parts.py", FORMS_S28),
    "QHL": ("ec2audit/detect/forms/host_labels.py", FORMS_S28),
    "QTR": ("ec2audit/detect/forms/truncated.py", FORMS_3940),
    "QAD": ("ec2audit/detect/forms/addresses.py", FORMS_3940),
    "QCF": ("ec2audit/detect/forms/context_fragments.py", FORMS_S28),
    "QCV": ("ec2audit/detect/forms/conversions.py", FORMS_S28),
    "QSE": ("ec2audit/detect/forms/separators.py", [*FORMS_S28, "tests/test_detect_forms_s26.py"]),
    "QVC": ("ec2audit/detect/value_checks.py",
            [*GRADER_S28, "tests/test_value_checks.py::test_a_birth_date_said_with_its_year_s_last_two_digits_is_"
                          "graded_though_near_as_a_string"]),
    "QLG": ("ec2audit/detect/learned_grader.py", GRADER_S28),
    "QMT": ("ec2audit/metrics.py", [*NO_TASK_S28, *RUN_TOKENS_S28, "tests/test_mutation_kills_s28.py::test_a_stopped_"
                                    "interceptor_counts_a_failed_calls_tokens_as_none_and_names_only_blocked_requests"]),
    "QAU": ("ec2audit/audit.py", NO_TASK_S28),
    "QIS": ("ec2audit/logs/intercept_store.py", NO_TASK_S28),
    "QBA": ("ec2audit/logs/base.py", DEDUP_S28),
    "QLL": ("ec2audit/logs/litellm.py", DEDUP_S28),
    "QLF": ("ec2audit/logs/langfuse.py", DEDUP_S28),
    "QLA": ("ec2audit/logs/audit.py",
            [*NO_TASK_S28, "tests/test_backends.py::test_a_serial_audit_writes_its_calls_and_findings_as_it_goes_the_"
                           "same_results",
             "tests/test_mutation_kills_s28.py::test_a_serial_audit_writes_its_calls_as_it_goes_where_they_hold_no_"
             "findings"]),
    "QEP": ("ec2audit/run/episodes.py", RUN_TOKENS_S28),
    "QSC": ("ec2audit/run/scheduler.py", RUN_TOKENS_S28),
    "QRS": ("ec2audit/report/summary.py", RUN_TOKENS_S28),
    "QRT": ("ec2audit/report/terminal.py", NO_TASK_S28),
    "QCO": ("ec2audit/console.py", ["tests/test_console.py", *RUN_TOKENS_S28]),
    "QCI": ("ec2audit/cli/intercept.py", [*NO_TASK_S28, *STOP_S27]),
    "QFI": ("ec2audit/annotate/recognizers/finance.py",
            [W20 + "test_a_payment_processors_published_test_cards_are_nobodys_card",
             "tests/test_annotate_recognizers.py"]),
    "QIC": ("ec2audit/annotate/recognizers/icd.py", ICD_S28),
    "QDI": ("ec2audit/logs/discovered.py", ICD_S28),
}
GROUPS.update(GROUPS_S29)
#: session 30's groups: the code changed in session 29 (`git diff bf788fd 83aadfc -- ec2audit`)
W19F = "tests/test_intercept_forms_walk_19.py::"
W21 = ["tests/test_new_user_walk_21.py"]
FORMS_S29 = ["tests/test_detect_forms_s29.py"]
DENIALS_S29 = [*FORMS_S29, "tests/test_intercept_denials.py"]
BAND_S29 = ["tests/test_judge_description_band.py"]
DEADLINE_S29 = ["tests/test_run_gateway.py::test_a_model_call_may_take_as_long_as_its_episodes_deadline_not_the_"
                "gateways_default"]
GROUPS_S30: dict[str, tuple[str, list[str]]] = {
    "ZBD": ("ec2audit/detect/forms/bare_dumps.py", [W19F + "test_a_dump_with_no_offsets_is_read"]),
    "ZBP": ("ec2audit/detect/forms/bank_pairs.py", FORMS_S29),
    "ZIP": ("ec2audit/detect/forms/id_parts.py", FORMS_S29),
    "ZHX": ("ec2audit/detect/forms/hex_ips.py", FORMS_S29),
    "ZTR": ("ec2audit/detect/forms/truncated.py", ["tests/test_detect_cut_prose.py", *FORMS_3940]),
    "ZCC": ("ec2audit/detect/forms/concatenation.py",
            [W19F + "test_literals_cut_at_a_punctuation_mark_are_read_joined"]),
    "ZCP": ("ec2audit/detect/forms/code_point_lists.py", [W19F + "test_a_text_made_by_from_char_code_is_read"]),
    "ZSD": ("ec2audit/detect/forms/sse_deltas.py", [W19F + "test_an_ollama_stream_pasted_whole_is_read_joined"]),
    "ZDN": ("ec2audit/detect/denials.py", DENIALS_S29),
    "ZTI": ("ec2audit/detect/tiers/__init__.py", DENIALS_S29),
    "ZRD": ("ec2audit/intercept/redact.py", ["tests/test_intercept_denials.py"]),
    "ZAP": ("ec2audit/intercept/app.py", ["tests/test_intercept_denials.py"]),
    "ZLN": ("ec2audit/intercept/lanes.py", ["tests/test_intercept_denials.py"]),
    "ZNM": ("ec2audit/detect/normalize.py", FORMS_S29),
    "ZEX": ("ec2audit/detect/exact.py", ["tests/test_detect_calling_codes.py"]),
    "ZLG": ("ec2audit/detect/learned_grader.py", [*BAND_S29, JUDGE[0]]),
    "ZEJ": ("ec2audit/detect/e5_judge.py", BAND_S29),
    "ZOL": ("ec2audit/logs/openai_log.py", ["tests/test_dedup_across_parts.py"]),
    "ZBA": ("ec2audit/logs/base.py", W12),
    "ZIS": ("ec2audit/logs/intercept_store.py", W21),
    "ZST": ("ec2audit/intercept/store.py", W21),
    "ZCI": ("ec2audit/cli/intercept.py", W21),
    "ZCO": ("ec2audit/console.py", ["tests/test_console.py", *W21]),
    "ZRT": ("ec2audit/report/terminal.py", W21),
    "ZRS": ("ec2audit/report/summary.py", W21),
    "ZLR": ("ec2audit/logs/report.py", W21),
    "ZLA": ("ec2audit/logs/audit.py", W21),
    "ZRH": ("ec2audit/report/html.py", W21),
    "ZFI": ("ec2audit/files.py", W21),
    "ZAG": ("ec2audit/annotate/agreement.py", W21),
    "ZRG": ("ec2audit/run/gateway.py", DEADLINE_S29),
    "ZEP": ("ec2audit/run/episodes.py", DEADLINE_S29),
    "ZFN": ("ec2audit/annotate/recognizers/finance.py",
            [FORMS_S29[0] + "::test_prelabel_proposes_no_documentation_example_iban",
             "tests/test_annotate_recognizers.py"]),
}
GROUPS.update(GROUPS_S30)
#: session 31's groups: the code changed in session 30 (`git diff 83aadfc 4193c60 -- ec2audit`)
FORMS_S30 = ["tests/test_detect_forms_s30.py"]
BLIND_S30 = ["tests/test_detect_blind_s30.py"]
W20F = "tests/test_intercept_forms_walk_20.py::"
W22 = "tests/test_new_user_walk_22.py::"
CUES_S30 = ["tests/test_detect_form_cues.py"]
FIGURES_S30 = [W22 + "test_a_depression_of_the_economy_and_a_stroke_of_luck_are_no_ones_condition",
               W22 + "test_a_short_chinese_diagnosis_counts_where_the_text_says_it_is_one",
               "tests/test_annotate_recognizers.py"]
PRELABEL_S30 = [W22 + "test_prelabel_of_the_current_folder_names_its_task_and_never_reads_its_own_output"]
BLOCKED_S30 = [W22 + "test_a_blocked_request_is_no_call_in_intercept_audit_audit_and_report_alike",
               W22 + "test_report_finds_the_store_intercept_audit_read_from_any_folder",
               W22 + "test_a_run_episodes_unreadable_record_is_named_not_dropped",
               "tests/test_audit_store_wrong_shape.py"]
PHOENIX_S30 = [W22 + "test_phoenixs_spans_dataframe_saved_by_pandas_is_read"]
GROUPS_S31: dict[str, tuple[str, list[str]]] = {
    "XKF": ("ec2audit/detect/forms/keyed_fields.py", FORMS_S30),
    "XIC": ("ec2audit/detect/forms/icd_codes.py", FORMS_S30),
    "XAC": ("ec2audit/detect/forms/acronyms.py", FORMS_S30),
    "XNV": ("ec2audit/detect/forms/near_verbatim.py", [*BLIND_S30, *FORMS_S30]),
    "XSE": ("ec2audit/detect/forms/separators.py", BLIND_S30),
    "XSO": ("ec2audit/detect/forms/spelled_out.py",
            [*BLIND_S30, "tests/test_detect_forms_spoken_s20.py::test_a_long_s_in_a_case_word_or_a_symbol_name_reads_"
                         "as_the_word_and_never_crashes"]),
    "XTR": ("ec2audit/detect/forms/truncated.py", BLIND_S30),
    "XUA": ("ec2audit/detect/forms/unaccented.py", BLIND_S30),
    "XCM": ("ec2audit/detect/compiled.py", BLIND_S30),
    "XBP": ("ec2audit/detect/forms/bank_pairs.py", BLIND_S30),
    "XCU": ("ec2audit/detect/cues.py", CUES_S30),
    "XLS": ("ec2audit/detect/forms/letter_spacing.py", CUES_S30),
    "XDN": ("ec2audit/detect/denials.py", FORMS_S30),
    "XVC": ("ec2audit/detect/value_checks.py",
            ["tests/test_value_checks.py::test_a_number_said_in_two_halves_or_digit_by_digit_with_hyphens"]),
    "XHE": ("ec2audit/annotate/recognizers/health.py", FIGURES_S30),
    "XIR": ("ec2audit/annotate/recognizers/icd.py", FIGURES_S30),
    "XDI": ("ec2audit/logs/discovered.py", [W22 + "test_discover_keeps_a_chinese_condition_said_of_its_holder"]),
    "XWS": ("ec2audit/annotate/workspace.py", PRELABEL_S30),
    "XCA": ("ec2audit/cli/annotate.py", PRELABEL_S30),
    "XCI": ("ec2audit/cli/intercept.py", BLOCKED_S30),
    "XLA": ("ec2audit/logs/audit.py", BLOCKED_S30),
    "XIS": ("ec2audit/logs/intercept_store.py", BLOCKED_S30),
    "XRS": ("ec2audit/report/summary.py", BLOCKED_S30),
    "XEP": ("ec2audit/run/episodes.py", BLOCKED_S30),
    "XLR": ("ec2audit/logs/report.py", PHOENIX_S30),
    "XPX": ("ec2audit/logs/phoenix_spans.py", PHOENIX_S30),
    "XLI": ("ec2audit/logs/__init__.py", PHOENIX_S30),
    "XSP": ("ec2audit/detect/forms/spaced_pieces.py", [W20F + "test_pieces_one_space_apart_are_read_joined",
                                                       "tests/test_intercept_forms_walk_21.py::"
                                                       "test_pieces_a_run_of_blanks_apart_are_read_joined"]),
    "XWB": ("ec2audit/detect/forms/wide_bytes.py", [W20F + "test_the_repr_of_utf16_and_utf32_bytes_is_read"]),
    "XAS": ("ec2audit/detect/forms/ascii_columns.py", [W20F + "test_the_character_column_of_a_dump_is_read_joined"]),
    "XTV": ("ec2audit/detect/forms/turned_values.py", [W20F + "test_a_line_backwards_or_in_rot13_is_read"]),
}
GROUPS.update(GROUPS_S31)
#: group → the tests file added with the round that planted its mutants
ADDED_WITH = {g: "tests/test_mutation_kills_s31.py" if g in GROUPS_S31 else
              "tests/test_mutation_kills_s30.py" if g in GROUPS_S30 else
              "tests/test_mutation_kills_s29.py" if g in GROUPS_S29 else
              "tests/test_mutation_kills_s28.py" if g in GROUPS_S28 else
              "tests/test_mutation_kills_s27.py" if g in GROUPS_S27 else
              "tests/test_mutation_kills_s26.py" if g in GROUPS_S26 else
              "tests/test_mutation_kills_s25.py" if g in GROUPS_S25 else
              "tests/test_mutation_kills_s24.py" if g in GROUPS_S24 else
              "tests/test_mutation_kills_s23.py" if g in GROUPS_S23 else
              "tests/test_mutation_kills_s22.py" if g in GROUPS_S22 else
              "tests/test_mutation_kills_s21.py" if g in GROUPS_S21 else "tests/test_mutation_kills_s20.py"
              for g in GROUPS}

PLATE_HOST_S29 = "test_most_of_a_plate_is_more_than_sixty_percent_of_it_and_a_host_label_of_words_is_no_host"
ONE_VALUE_S29 = "test_an_episode_naming_no_task_counts_a_value_two_tasks_hold_once"
UNKNOWN_S29 = "test_a_cloud_cost_or_token_count_nobody_knows_is_unknown_per_episode_per_run_and_when_stopped"
FORMS_NEAR_S28 = "test_too_little_of_a_value_or_another_number_is_no_hit_of_the_new_forms"
FORMS_WHOLE_S28 = "test_a_value_the_new_forms_read_is_found_whole_where_it_is_written"
INITIALS_S31 = "test_initials_are_the_entitys_by_his_name_or_his_records_whole_id"
CODES_S31 = "test_a_code_of_another_record_or_of_a_one_word_description_is_no_diagnosis"
SPELLING_S31 = "test_a_spelling_naming_two_items_on_its_line_is_read"
FIGURES_S31 = "test_a_stroke_of_bad_luck_a_years_stroke_and_the_great_depression_are_no_ones_condition"
SUITE_S31 = "test_prelabel_of_a_task_suite_never_reads_its_own_output_left_in_a_workspace"
UNREAD_S31 = "test_a_runs_episode_names_a_body_of_the_wrong_shape_by_its_error"
PHOENIX_S31 = "test_phoenix_spans_saved_as_a_json_array_are_read_in_time_order_each_trace_a_session"
#: group → the tests of its round's file (`ADDED_WITH`) written for its survivors (`--new-only`: run these alone
#: against each mutant, the group's own tests having let it live before)
NEW_FOR: dict[str, list[str]] = {
    "R": ["test_a_recognizer_proposes_the_whole_value", "test_a_recognizer_leaves_a_look_alike_alone",
          "test_discovery_keeps_a_short_record_number_after_its_word_and_names_an_account_an_account"],
    "P": ["test_a_recognizer_proposes_the_whole_value", "test_a_recognizer_leaves_a_look_alike_alone"],
    "G": ["test_prelabel_reads_every_branch_and_each_person_once", "test_prelabel_says_a_git_folder_it_cannot_read"],
    "Z": ["test_a_name_after_a_role_jieba_glues_to_it_keeps_its_surname",
          "test_a_patient_named_after_a_bed_number_is_a_name",
          "test_a_name_right_after_a_title_starts_there_whatever_word_jieba_reads_over_it"],
    "L": ["test_a_log_named_twice_under_two_spellings_is_read_once",
          "test_a_subagents_transcript_named_after_its_folder_is_listed_when_its_session_is_not"],
    "T": ["test_a_log_named_twice_under_two_spellings_is_read_once"],
    "B": ["test_a_process_pool_gives_sigterm_back_when_it_is_done"],
    "X": ["test_an_older_episode_records_dimensions_are_written_in_name_order"],
    "D": ["test_a_thousand_dollars_and_a_free_call_read_as_such_in_the_providers_table"],
    "S": ["test_a_stopped_interceptor_counts_model_calls_only_and_says_an_unpriced_models_cost_is_unknown"],
    "O": ["test_openhands_calls_take_their_responses_usage_else_what_the_totals_grew_by",
          "test_an_openhands_message_whose_tokens_the_totals_cannot_tell_is_unpriced"],
    "Q": ["test_a_rows_unknown_cost_says_how_many_of_its_unpriced_calls_logged_no_usage"],
    "M": ["test_a_pdfs_metadata_and_a_pdf_any_viewer_opens_are_read",
          "test_a_short_string_that_starts_like_a_file_is_text"],
    "J": ["test_gemini_text_parts_with_json_text_between_are_not_read_as_one"],
    "LG": ["test_a_feature_at_a_split_goes_left_and_a_probability_at_the_threshold_grades",
           "test_a_grader_file_with_a_value_of_the_wrong_type_is_a_one_line_error",
           "test_a_grader_whose_node_reads_a_feature_past_the_last_is_refused"],
    "LE": ["test_the_model_alone_never_reads_the_learned_graders_file"],
    "DR": ["test_a_number_is_read_in_its_run_and_an_account_with_its_margin_for_the_bank",
           "test_a_run_with_as_many_numbers_as_are_compiled_is_read_by_regions",
           "test_an_account_whose_bank_is_named_after_it_beyond_its_region_is_read_in_the_whole_view"],
    "AO": ["test_an_identifier_written_with_other_separators_is_found_to_its_last_character"],
    "CP": ["test_only_a_keys_own_published_prefix_goes_uncounted"],
    "PK": ["test_only_a_keys_own_published_prefix_goes_uncounted"],
    "MK": ["test_only_a_keys_own_published_prefix_goes_uncounted"],
    "CX": ["test_a_custom_tools_output_is_read_and_two_responses_in_a_row_are_two_calls",
           "test_codexs_developer_instructions_are_the_system_prompt"],
    "MZ": ["test_a_document_inside_a_zip_is_read_and_xml_declaring_entities_is_refused",
           "test_an_opendocument_space_and_an_attribute_after_the_last_text_keep_values_whole"],
    "RN": ["test_a_number_read_across_two_query_parameters_names_is_in_no_name"],
    "CU": ["test_a_cost_unknown_for_every_call_says_why"],
    "LR": ["test_a_providers_row_says_why_its_cost_is_unknown_where_it_is"],
    "RS": ["test_report_counts_the_unpriced_calls_without_usage_apart_from_those_without_a_price"],
    "LA": ["test_the_sessions_table_counts_without_a_price_only_the_calls_that_logged_usage"],
    "FE": ["test_a_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "FS": ["test_a_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "FC": ["test_a_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "FR": ["test_a_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "FO": ["test_a_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "FL": ["test_a_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "PA": ["test_a_recognizer_proposes_a_holder_and_a_drama_number_and_no_look_alike"],
    "CT": ["test_a_recognizer_proposes_a_holder_and_a_drama_number_and_no_look_alike"],
    "SU": ["test_the_proxy_prices_a_call_at_the_tier_its_answer_names_else_the_one_asked",
           "test_a_logged_call_pays_its_web_searches_and_a_long_flex_prompt_its_flex_rate_above_the_bound"],
    "SP": ["test_a_logged_call_pays_its_web_searches_and_a_long_flex_prompt_its_flex_rate_above_the_bound",
           "test_a_price_tables_bad_web_search_or_service_tier_is_a_one_line_error",
           "test_a_model_without_a_price_at_a_tier_is_warned_of_once"],
    "SI": ["test_the_proxy_prices_a_call_at_the_tier_its_answer_names_else_the_one_asked"],
    "KC": ["test_the_compile_cache_keeps_the_most_recently_used_files_of_its_kind",
           "test_another_python_is_another_version_of_the_code"],
    "KM": ["test_the_compile_cache_keeps_the_most_recently_used_files_of_its_kind",
           "test_a_file_another_process_pruned_sorts_as_the_oldest"],
    "BC": ["test_a_value_cut_across_two_parts_of_one_message_is_found_in_each_where_it_lies"],
    "BQ": ["test_in_a_batch_a_form_without_a_cue_still_reads_and_each_text_keeps_its_own_cues"],
    "RC": ["test_a_tokens_own_hit_running_past_the_joins_reach_goes_out_nowhere",
           "test_overlapping_spans_become_their_union_named_by_the_highest_ranked",
           "test_a_value_that_is_an_arrays_first_number_replaces_that_number_alone"],
    "JS": ["test_a_value_spelled_in_characters_becomes_one_element_and_its_neighbours_stay",
           "test_an_array_of_sentences_keeps_each_ones_words_around_a_value"],
    "NS": ["test_a_new_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "NG": ["test_a_new_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "NC": ["test_a_new_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "NB": ["test_a_new_form_reads_what_it_names_and_leaves_its_look_alikes"],
    "NI": ["test_an_ipv6_unit_written_in_brackets_reads_its_other_spellings"],
    "LV": ["test_a_grader_of_the_wrong_shape_or_a_child_past_the_last_node_is_refused",
           "test_the_grader_loads_its_own_review_threshold"],
    "AP": ["test_a_mailboxs_display_name_of_words_is_a_person_where_it_opens_with_a_given_name"],
    "AL": ["test_a_list_of_people_ending_in_a_full_stop_is_each_person"],
    "AD": ["test_every_policy_number_after_its_word_is_discovered_as_a_record_number"],
    "TU": ["test_a_body_that_is_no_json_object_names_no_tier"],
    "TA": ["test_report_names_the_tier_of_an_unpriced_call_whatever_default_tier_call_went_before"],
    "TS": ["test_report_reads_a_sessions_table_written_before_the_unpriced_tier_was_kept"],
    "BH": ["test_a_bedrock_call_that_asked_for_flex_is_priced_at_flex_when_its_answer_names_no_tier"],
    "OB": ["test_openrouters_cost_is_the_fee_plus_the_providers_bill_only_on_the_users_own_key"],
    "GZ": ["test_gzip_logs_in_another_encoding_and_gzips_of_no_text_are_each_said",
           "test_a_gzip_log_is_sniffed_and_read_by_its_name_without_gz"],
    "GE": ["test_gzip_logs_in_another_encoding_and_gzips_of_no_text_are_each_said",
           "test_a_gzip_log_is_sniffed_and_read_by_its_name_without_gz"],
    "WS": ["test_a_mails_csv_attachment_is_read_and_its_mime_layout_is_no_value",
           "test_a_pdf_in_another_encoding_than_utf8_is_read_as_its_reader_shows_it",
           "test_a_quoted_printable_mail_and_a_yaml_lists_people_are_read_as_written"],
    "WB": ["test_a_vcard_4_birthday_with_its_value_parameter_is_a_birth_date"],
    "JC": ["test_a_list_of_texts_each_sent_apart_is_never_read_run_together"],
    "FX": ["test_a_byte_list_of_one_number_a_line_reads_in_a_short_text_and_a_long_one"],
    "FW": ["test_a_word_diff_line_reads_each_change_and_a_change_to_the_same_character"],
    "FN": ["test_a_characters_bytes_join_only_across_words_a_blank_alone_parts"],
    "FQ": ["test_quoted_printables_ascii_escapes_read_only_where_an_encoder_writes_them"],
    "CL": ["test_a_command_module_that_defines_another_command_is_refused"],
    "LM": ["test_a_started_local_model_server_is_started_once"],
    "VC": ["test_a_number_in_a_longer_run_of_commas_is_not_read_the_european_way"],
    "DC": ["test_a_conditions_category_is_read_from_its_aliases_and_cues_at_a_words_start"],
    "YB": ["test_a_batch_output_answers_the_one_input_holding_all_of_its_ids",
           "test_a_batch_request_that_expired_was_cancelled_or_failed_cost_nothing",
           "test_a_batch_inputs_line_range_is_no_range_of_its_output",
           "test_a_log_beside_a_batch_is_no_answer_file_of_it"],
    "YC": ["test_a_cline_task_names_its_last_model_and_tells_cache_reads_from_writes"],
    "YO": ["test_an_ollama_embedding_counts_its_prompt_tokens"],
    "YF": ["test_langfuses_usage_buckets_are_each_counted_once"],
    "YH": ["test_a_stream_that_ended_is_priced_whichever_way_it_says_so",
           "test_an_answer_logged_as_empty_text_beside_its_usage_is_priced"],
    "YR": ["test_report_names_the_first_call_of_a_units_best_grade_not_a_later_one_as_good"],
    "YM": ["test_a_unit_sent_mostly_is_a_leak_in_its_groups_count"],
    "YI": ["test_intercept_audits_sessions_table_counts_what_went_to_the_cloud_and_what_it_cost"],
    "YA": ["test_an_acebench_items_text_ends_at_a_blank_line_or_a_heading_and_its_weight_may_be_a_percentage"],
    "YK": ["test_a_stripe_keys_placeholder_is_no_credential_and_a_surname_column_completes_a_name"],
    "YW": ["test_a_stripe_keys_placeholder_is_no_credential_and_a_surname_column_completes_a_name"],
    "YL": ["test_a_stripe_keys_placeholder_is_no_credential_and_a_surname_column_completes_a_name"],
    "YU": ["test_a_links_plus_joined_words_are_read_as_a_name_only_where_they_are_one"],
    "YV": ["test_utf16_text_is_read_by_its_byte_order_mark_or_where_its_holder_says_it_is_text",
           "test_a_powershell_encoded_command_is_read_without_any_other_hint_of_base64"],
    "YE": ["test_a_cached_table_is_kept_fresh_built_again_for_other_code_and_survives_a_cache_it_cannot_write"],
    "YG": ["test_a_normal_result_or_a_denial_finds_nothing_and_a_decimal_is_stated_only_as_written"],
    "UB": ["test_a_hidden_copy_of_a_batch_input_is_no_second_owner_of_its_output",
           "test_a_batch_output_answers_the_input_in_its_own_folder_before_one_elsewhere"],
    "UC": ["test_an_openai_style_providers_cache_writes_are_taken_out_of_its_prompt_and_its_cost_kept_without_a_"
           "cache",
           "test_a_request_sent_the_moment_a_model_starts_serving_is_that_models"],
    "UD": ["test_a_part_in_base64_transfer_encoding_is_named_unread",
           "test_a_forwarded_forms_boundary_is_in_none_of_its_values",
           "test_a_jsonl_file_of_two_lines_is_read_as_its_objects_and_forwarded_as_written",
           "test_bytes_holding_nuls_are_no_text_and_a_file_of_no_known_kind_is_named_unread",
           "test_a_name_sent_three_times_is_a_list_and_each_value_is_forwarded_as_its_own_part_was"],
    "UN": ["test_a_form_whose_media_type_is_capitalised_is_read_and_its_stream_false_is_no_stream"],
    "UT": ["test_token_ids_are_two_ints_at_least_and_a_character_cut_at_the_end_reads_as_a_replacement"],
    "UJ": ["test_a_value_in_token_ids_is_replaced_by_whole_characters_only"],
    "UR": ["test_a_registry_values_bytes_read_as_the_text_its_type_says"],
    "UL": ["test_code_points_are_read_in_a_list_not_out_of_a_comma_separated_row"],
    "UO": ["test_a_position_off_by_its_last_digit_or_a_value_that_is_no_position_is_no_hit",
           "test_a_position_to_a_finer_value_is_the_position"],
    "UE": ["test_an_identifier_is_read_with_middle_dots_and_a_number_is_left_to_the_digit_views"],
    "UU": ["test_a_host_named_in_two_letters_is_no_name_to_find_its_subnet_by"],
    "UH": ["test_a_number_spaced_off_han_on_both_sides_loses_its_spaces_and_one_after_a_label_keeps_them"],
    "UK": ["test_a_lower_case_example_key_and_a_sentence_after_a_password_word_are_no_credential"],
    "UY": ["test_a_condition_said_as_what_its_holder_is_reads_epileptic"],
    "VS": ["test_another_side_or_strength_is_read_across_units_and_languages"],
    "UCD": ["test_a_credential_in_another_case_is_no_literal_however_its_letters_are_written"],
    "EA": ["test_two_words_as_their_initials_are_too_many_things_to_be_the_value"],
    "EAT": ["test_an_address_form_filled_line_by_line_is_read_from_its_flat"],
    "EV": ["test_a_variant_of_a_value_naming_no_gene_is_the_value"],
    "EDT": ["test_a_roc_year_past_a_hundred_and_a_french_first_of_the_month_read_as_written"],
    "ES": ["test_an_identifier_is_cut_where_digits_latin_letters_and_han_meet"],
    "ECF": ["test_a_cards_start_and_end_showing_forty_percent_of_it_are_most_of_it"],
    "ECP": ["test_json_strings_and_code_points_a_line_read_with_windows_line_ends"],
    "ECC": ["test_json_strings_and_code_points_a_line_read_with_windows_line_ends"],
    "EG": ["test_a_health_result_negative_a_few_words_on_finds_nothing",
           "test_a_number_of_a_value_without_one_is_no_evidence_and_an_entity_or_initials_are",
           "test_a_list_that_never_names_the_entity_is_no_other_persons_row"],
    "EC": ["test_an_amount_a_year_is_yearly_and_a_text_stating_the_values_period_is_not_converted",
           "test_another_instance_or_number_only_where_its_rules_say",
           "test_a_placeholder_is_the_values_slot_only_where_the_value_is_written_nowhere_else",
           "test_a_number_of_a_value_without_one_is_no_evidence_and_an_entity_or_initials_are"],
    "EP": ["test_a_resumable_upload_in_three_chunks_is_audited_and_forwarded_whole"],
    "ED": ["test_every_route_of_ollama_and_cohere_is_recorded_as_its_dialect"],
    "EF": ["test_a_resumable_upload_the_guard_cannot_read_is_refused_naming_its_media_type"],
    "ER": ["test_every_channel_of_an_ollama_stream_is_restored_and_assembled"],
    "ESS": ["test_every_channel_of_an_ollama_stream_is_restored_and_assembled"],
    "EB": ["test_a_batch_gzipped_under_an_upper_case_suffix_is_paired_and_read"],
    "ECT": ["test_an_address_at_a_domain_that_only_ends_like_a_template_domain_is_someones"],
    "EH": ["test_deletions_beside_a_changes_other_counts_are_none_and_a_bands_are_a_condition"],
    "HA": ["test_a_request_log_with_a_key_other_formats_use_is_audited_as_requests"],
    "HG": ["test_a_request_log_with_a_key_other_formats_use_is_audited_as_requests",
           "test_a_gemini_cli_prompt_written_as_one_part_or_holding_code_is_read",
           "test_a_gemini_cli_jsonl_session_alone_is_its_session_with_each_message_as_last_written"],
    "HO": ["test_a_helicone_export_keeping_its_session_in_properties_alone_keeps_its_sessions"],
    "HU": ["test_a_two_column_csv_is_named_a_table_and_a_cut_json_line_naming_value_is_not"],
    "HAB": ["test_a_hybrid_tasks_shares_and_rubric_weights_are_normalised_and_a_rubric_of_no_weight_is_one_criterion",
            "test_a_task_file_imported_from_inside_acebenchs_folder_needs_no_root_hint"],
    "HUP": ["test_chunks_that_fill_the_byte_bound_exactly_are_all_held",
            "test_an_upload_dropped_and_sent_again_from_offset_0_in_chunks_completes",
            "test_an_upload_is_dropped_only_past_its_age_counted_from_its_latest_chunk",
            "test_the_upload_sent_to_least_recently_is_dropped_first"],
    "HP": ["test_an_upload_dropped_and_sent_again_from_offset_0_in_chunks_completes",
           "test_urls_the_upstream_names_elsewhere_are_refused_only_where_the_client_would_send_its_file_or_body",
           "test_a_part_after_one_whose_end_was_dropped_is_refused_and_observe_refuses_no_part",
           "test_a_value_starting_at_a_seam_is_redacted_and_a_refused_part_sent_again_is_refused_again",
           "test_a_value_across_a_seam_found_at_the_blocking_grade_exactly_is_refused",
           "test_a_value_written_longer_than_any_value_is_still_read_across_a_seam"],
    "HSM": ["test_a_value_starting_at_a_seam_is_redacted_and_a_refused_part_sent_again_is_refused_again",
            "test_a_value_across_a_seam_found_at_the_blocking_grade_exactly_is_refused",
            "test_a_value_written_longer_than_any_value_is_still_read_across_a_seam"],
    "HSS": ["test_a_responses_stream_that_fails_has_its_error_recorded"],
    "HV": ["test_a_birth_date_in_this_years_passport_zone_is_this_years"],
    "HBT": ["test_a_blood_type_without_its_rh_factor_is_no_reading_of_a_group_with_one",
            "test_a_blood_type_with_its_factor_first_or_as_neg_is_the_value",
            "test_a_group_and_sign_that_a_longer_sign_follows_is_no_blood_type"],
    "HBY": ["test_a_birth_year_is_read_for_a_field_named_dob_in_any_case",
            "test_a_year_that_more_digits_follow_is_no_birth_year",
            "test_a_birth_years_finding_is_written_as_a_fragment_of_the_confidence_of_an_age"],
    "HGT": ["test_a_term_with_words_on_both_sides_of_its_grade_has_no_other_form",
            "test_a_grade_of_ten_is_read_in_either_numerals",
            "test_a_grade_that_ends_a_longer_han_number_is_no_grade_of_the_term"],
    "HS": ["test_a_value_starting_with_a_province_but_no_plate_has_no_pinyin_form"],
    "ISM": ["test_a_base64_run_cut_off_its_groups_at_both_ends_of_the_seam_is_read",
            "test_a_file_that_is_the_value_alone_cut_in_two_parts_is_read_whole"],
    "IFD": ["test_a_urlencoded_body_in_a_declared_charset_goes_out_in_that_charset",
            "test_a_file_is_read_by_its_byte_order_mark_and_a_jsonl_file_goes_out_in_its_charset"],
    "IFL": ["test_a_number_with_an_exponent_is_read_in_its_digits_within_forty_characters"],
    "IAU": ["test_a_serial_audit_writes_its_calls_as_it_goes_where_they_hold_no_findings"],
    "IRP": ["test_an_audit_of_one_call_against_one_unit_says_so_in_the_singular"],
    "ICI": ["test_a_stopped_interceptor_counts_a_failed_calls_tokens_as_none_and_names_only_blocked_requests"],
    "IKP": [FORMS_NEAR_S28], "IRA": [FORMS_NEAR_S28], "IDP": [FORMS_NEAR_S28], "IMA": [FORMS_NEAR_S28],
    "ICF": ["test_a_piece_the_new_forms_read_is_found_as_a_fragment"],
    "ISE": [FORMS_WHOLE_S28], "IAD": [FORMS_WHOLE_S28],
    "IAP": ["test_complete_reads_a_value_across_three_parts_the_middle_one_shorter_than_a_seam",
            "test_an_observing_proxy_hands_on_the_model_lists_redirect_to_another_host"],
    "ISN": ["test_a_piece_the_new_forms_read_is_found_as_a_fragment",
            "test_a_relative_sharing_the_persons_surname_is_not_called_by_it"],
    "IRH": ["test_the_html_reports_strategy_table_says_tokens_nobody_counted_are_unknown"],
    "QPP": [PLATE_HOST_S29], "QHL": [PLATE_HOST_S29],
    "QMD": ["test_a_gzip_inflating_past_the_limit_is_named_unread_not_read_in_part",
            "test_a_damaged_gzip_in_a_workspace_is_named_with_its_kind"],
    "QSH": ["test_a_responses_request_naming_a_prompt_with_an_input_of_the_wrong_type_is_refused"],
    "QTR": ["test_a_key_cut_after_nine_of_its_characters_is_a_fragment"],
    "QCF": [PLATE_HOST_S29],
    "QMB": ["test_a_mail_body_is_read_whatever_its_headers_order_and_up_to_its_boundary"],
    "QSE": ["test_a_plates_province_romanised_before_a_hyphen_is_the_plate"],
    "QVC": ["test_another_unit_is_one_of_the_values_measure_and_the_value_never_given_in_its_own"],
    "QBA": ["test_two_litellm_calls_an_upstream_answered_with_one_id_are_two_calls"],
    "QMT": [ONE_VALUE_S29], "QLA": [ONE_VALUE_S29], "QCI": [ONE_VALUE_S29],
    "QEP": [UNKNOWN_S29], "QSC": [UNKNOWN_S29], "QCO": [UNKNOWN_S29],
    "QFI": ["test_unionpays_published_test_card_is_nobodys_card"],
    "ZBD": ["test_a_dump_of_a_file_of_several_lines_is_read"],
    "ZBP": ["test_a_banks_code_is_named_by_every_word_for_it_and_never_read_inside_a_longer_token"],
    "ZIP": ["test_a_resident_ids_parts_are_read_by_every_word_naming_them_and_never_inside_another_number"],
    "ZHX": ["test_an_addresss_hex_digits_ending_a_longer_hex_run_are_no_address"],
    "ZTR": ["test_prose_cut_at_a_words_end_with_an_ellipsis_and_the_cut_said_is_graded"],
    "ZCP": ["test_a_text_made_by_from_code_point_is_read"],
    "ZNM": ["test_a_number_read_out_in_chinese_numerals_with_a_comma_and_a_space_between_groups_is_the_number"],
    "ZEX": ["test_a_number_after_a_calling_code_that_is_no_phone_with_its_code_stays_no_hit"],
    "ZDN": ["test_a_claim_denied_in_other_words_is_no_leak"],
    "ZLN": ["test_a_guard_keeps_a_value_said_in_a_denial_out_of_a_large_body_too"],
    "ZLG": ["test_a_question_by_its_mark_or_by_ma_alone_may_not_describe_the_value"],
    "ZIS": ["test_a_forwarded_record_with_no_body_on_record_says_so"],
    "ZCI": ["test_an_intercepted_sessions_calls_without_a_price_are_counted_with_their_tier"],
    "ZCO": ["test_an_intercepted_sessions_calls_without_a_price_are_counted_with_their_tier"],
    "ZLR": ["test_an_empty_units_file_says_one_cloud_call_in_the_singular",
            "test_audit_of_a_store_says_an_episodes_exposure_is_over_a_lower_bound_of_units"],
    "ZFI": ["test_a_findings_line_that_is_json_but_no_object_is_named_by_its_line"],
    "ZAG": ["test_annotator_agreement_counts_each_half_width_kana_as_a_token"],
    "ZBA": ["test_a_batch_error_line_whose_response_is_a_string_is_a_failed_call"],
    "ZFN": ["test_prelabel_proposes_no_documentation_example_iban_written_in_lower_case"],
    "XKF": ["test_keyed_fields_join_only_within_one_record_under_one_stem",
            "test_a_pretty_printed_records_pieces_on_lines_apart_join_in_a_long_text"],
    "XIC": [INITIALS_S31, CODES_S31, "test_only_the_most_specific_code_standing_alone_is_the_diagnosis"],
    "XAC": [INITIALS_S31, CODES_S31],
    "XNV": ["test_a_names_particle_is_read_with_it_surname_first"],
    "XSE": ["test_a_guangdong_plate_is_written_out_with_its_own_provinces_name"],
    "XSO": [SPELLING_S31], "XCU": [SPELLING_S31], "XLS": [SPELLING_S31],
    "XTR": ["test_prose_cut_at_a_smudge_said_in_two_characters_is_graded"],
    "XBP": ["test_a_long_account_with_a_digit_on_either_side_is_another_number"],
    "XDN": ["test_an_amount_denied_in_capitals_or_as_not_been_offered_is_no_leak"],
    "XVC": ["test_an_id_read_out_digit_by_digit_with_oh_for_zero_is_read_as_its_digits",
            "test_a_number_said_in_halves_without_a_hyphen_is_read_as_one"],
    "XHE": [FIGURES_S31], "XIR": [FIGURES_S31],
    "XDI": ["test_discover_keeps_chinese_conditions_said_of_her_and_confirmed_as"],
    "XWS": [SUITE_S31], "XCA": [SUITE_S31],
    "XPX": [PHOENIX_S31], "XLR": [PHOENIX_S31], "XLI": [PHOENIX_S31],
    "XSP": ["test_pieces_one_space_apart_join_only_into_a_whole_value_of_six_characters_or_more"],
    "XWB": ["test_the_repr_of_utf16_bytes_of_several_lines_is_read",
            "test_the_repr_of_a_short_values_wide_bytes_is_read"],
    "XTV": ["test_a_value_backwards_is_the_value_at_its_forms_confidence"],
    "XAS": ["test_hexdumps_character_column_is_read_with_windows_line_ends_and_in_a_long_log"],
    "XEP": [UNREAD_S31], "XRS": ["test_report_says_the_store_intercept_audit_read_is_gone"],
}

#: (id, old, new): the group is the id's letter; `old` occurs once in the group's file.
MUTANTS: list[tuple[str, str, str]] = []


def mutant(ident: str, old: str, new: str) -> None:
    MUTANTS.append((ident, old, new))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="mutant ids (default: all)")
    parser.add_argument("--before", action="store_true", help="without the tests added with a mutant's round")
    parser.add_argument("--new-only", action="store_true", help="only the group's tests added with its round")
    parser.add_argument("--scratch", type=Path, help="copy of the tree to mutate (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds a mutant's tests may run (killed after)")
    args = parser.parse_args()
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="hand-mutants-"))
    _copy_tree(scratch)
    chosen = [m for m in MUTANTS if not args.only or m[0] in args.only]
    killed = 0
    print("| id | module | mutant (`old` → `new`) | result |\n|---|---|---|---|", flush=True)
    for ident, old, new in chosen:
        group = ident.rstrip("0123456789")
        path, tests = GROUPS[group]
        added = ADDED_WITH[group]
        if args.new_only:
            tests = [f"{added}::{name}" for name in NEW_FOR.get(group, [])]
            if not tests:
                print(f"| {ident} | {path.removeprefix('ec2audit/')} | | **survived** (no test added) |", flush=True)
                continue
        elif not args.before and (scratch / added).exists():
            tests = [*tests, added]
        result = _run(scratch, path, old, new, tests, args.timeout)
        killed += result.startswith("killed")
        module = path.removeprefix("ec2audit/")
        print(f"| {ident} | {module} | `{_cell(old)}` → `{_cell(new)}` | {result} |", flush=True)
    print(f"\n{killed} of {len(chosen)} killed", flush=True)
    return 0


def _copy_tree(scratch: Path) -> None:
    """The checkout's files as git sees them (no .git), with its virtual environments, caches and OpenClaw's
    `node_modules` linked, not copied (the Label Studio, OpenClaw and model-server tests need them)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (scratch / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, scratch / name)
    for link in (".venv", ".cache", ".venv-labelstudio", ".venv-phoenix", "runner/node_modules"):
        if (ROOT / link).exists() and not (scratch / link).exists():
            (scratch / link).parent.mkdir(parents=True, exist_ok=True)
            (scratch / link).symlink_to((ROOT / link).resolve())


def _run(scratch: Path, path: str, old: str, new: str, tests: list[str], timeout: float) -> str:
    target = scratch / path
    original = target.read_text(encoding="utf-8")
    if original.count(old) != 1:
        return f"**not applied** (`old` found {original.count(old)} times)"
    target.write_text(original.replace(old, new), encoding="utf-8")
    try:
        done = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                               "-m", "not chromium", *tests], cwd=scratch, capture_output=True, text=True,
                              timeout=timeout, env={**os.environ, "PYTHONPATH": str(scratch)})
    except subprocess.TimeoutExpired:
        return "killed: timeout"
    finally:
        target.write_text(original, encoding="utf-8")
    if done.returncode == 0:
        return "**survived**"
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, flags=re.MULTILINE)
    return f"killed: {failed.group(1).removeprefix('tests/') if failed else 'exit ' + str(done.returncode)}"


def _cell(text: str) -> str:
    return text.replace("\n", " ⏎ ").replace("|", "\\|").replace("`", "'")


# records.py: prefixes, the marker, digit counts, dates, the word before
mutant("R1", 'r"INS|POL|CLM|MBR"', 'r"INS|POL|CLM"')
mutant("R2", 'r"MRN|EHR|EMR"', 'r"EHR|EMR"')
mutant("R3", '(5 if _PREFIXED.fullmatch(value) else 4)', '(4 if _PREFIXED.fullmatch(value) else 4)')
mutant("R4", '(5 if _PREFIXED.fullmatch(value) else 4)', '(5 if _PREFIXED.fullmatch(value) else 5)')
mutant("R5", 'and not _DATE.fullmatch(value)', '')
mutant("R6", '_DATE = re.compile(r"\\d{4}-\\d\\d-\\d\\d|\\d\\d-\\d\\d-\\d{4}")',
       '_DATE = re.compile(r"\\d{4}-\\d\\d-\\d\\d")')
mutant("R7", '_WORD_BEFORE.search(before[-40:])', '_WORD_BEFORE.search(before[-4:])')
mutant("R8", '|(?i:{_ALL_WORDS}){_MARKER})\\s*$")', '|(?i:{_ALL_WORDS}){_MARKER}?)\\s*$")')
mutant("R9", '(?:-[\\dA-Z]+){0,3}"\n#: A separate', '(?:-[\\dA-Z]+){0,1}"\n#: A separate')
mutant("R10", '|(?i:{words}){_MARKER})\\s*(?P<value>', '|(?i:{words}){_MARKER}?)\\s*(?P<value>')
mutant("R11", 'no\\.?|nr\\.?|number|num|id|#', 'no\\.?|nr\\.?|number|num|#')
mutant("R12", 're.fullmatch(_NUMBER, value) and _WORD_BEFORE', 're.fullmatch(_NUMBER, value) or _WORD_BEFORE')
# person.py: the name after a key, before a mailbox, the census, roles
mutant("P1", 'if len(words) < 2:', 'if len(words) < 1:')
mutant("P2", 'opener not in _SENTENCE_OPENERS and', 'True and')
mutant("P3", '(particle or words[-1].upper() in last)', '(particle and words[-1].upper() in last)')
mutant("P4", 'for w in words[1:-1])', 'for w in words[1:])')
mutant("P5", 'r"on-?call|assignee|reporter|reviewer|maintainer|owner")', 'r"on-?call|reporter|reviewer|maintainer")')
mutant("P6", '"[ \\t]*<[^<>@\\s]+@[^<>\\s]+>|', '"[ \\t]+<[^<>@\\s]+@[^<>\\s]+>|')
mutant("P7", '\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}[ \\t]+\\d+\\)")', '\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}[ \\t]+\\d+\\) ")')
mutant("P8", "(?: {_NAME_WORD}(?:['’-][{_UPPER}]?[{_LOWER}]+)*){{1,3}}\"",
       "(?: {_NAME_WORD}(?:['’-][{_UPPER}]?[{_LOWER}]+)*){{2,3}}\"")
mutant("P9", "if any(w in _ROLE_WORDS for w in words) or all(w in COMMON_WORDS for w in words):",
       "if all(w in COMMON_WORDS for w in words):")
mutant("P10", "if any(w in _ROLE_WORDS for w in words) or all(w in COMMON_WORDS for w in words):",
       "if any(w in _ROLE_WORDS for w in words):")
mutant("P11", '"bot", "robot", "team",', '"robot", "team",')
mutant("P12", 'trim=r" [A-Z][a-z]+$",', 'trim=None,')
mutant("P13", '(?: [A-Z][a-z]+)?(?: [A-Z]\\.)?', '(?: [A-Z]\\.)?')
mutant("P14", 'read("dist.all.last") | _faker_surnames()', 'read("dist.all.last")')
mutant("P15", 'if isinstance(n, str) and n.isascii() and n.isalpha())', 'if isinstance(n, str))')
mutant("P16", '"no_NO", "fi_FI", "cs_CZ", "yo_NG")', '"no_NO", "fi_FI", "cs_CZ")')
# workspace.py: the git history's people
mutant("G1", '%(trailers:only,unfold)"', '"')
mutant("G2", 'for line in done.stdout.splitlines() if line.strip()', 'for line in done.stdout.splitlines()')
mutant("G3", '"".join(dict.fromkeys(line + "\\n" for line', '"".join((line + "\\n" for line')
mutant("G4", '"log", "--all", "--no-show-signature"', '"log", "--no-show-signature"')
mutant("G5", '                if d == ".git":\n                    repos.append(len(skipped) - 1)',
       '                if d == ".git":\n                    repos.append(len(skipped))')
mutant("G6", 'if done.returncode:\n', 'if False:\n')
mutant("G7", "Committer: %cn <%ce>%n", "")
mutant("G8", 'stdin=subprocess.DEVNULL)', 'stdin=None)')
# zh_pii.py: titles before names, jieba's nr names, the given-name table
mutant("Z1", '"厂长", "所长", "市长", "县长", "村长", "秘书长", "研究员", "工程师", "设计师",',
       '"厂长", "所长", "市长", "县长", "村长", "研究员", "工程师", "设计师",')
mutant("Z2", '_ROLES = "|".join(sorted(set(_ROLE), key=len, reverse=True))',
       '_ROLES = "|".join(sorted(set(_ROLE), key=len))')
mutant("Z3", 'if n > in_words[c]))', 'if n >= in_words[c]))')
mutant("Z4", 'rare = frozenset(c for c, n in in_words.items() if 2 * in_names[c] < n)',
       'rare = frozenset(c for c, n in in_words.items() if in_names[c] < n)')
mutant("Z5", 'if _given_part(w) and set(_given_part(w)) <= given and w[1] != w[0])',
       'if _given_part(w) and set(_given_part(w)) <= given)')
mutant("Z6", 'if _given_part(w) and set(_given_part(w)) <= given and w[1] != w[0])',
       'if _given_part(w) and w[1] != w[0])')
mutant("Z7", 'if tag.startswith("nr") and (w[0] in _ALL_SURNAMES or w[:2] in _COMPOUND)}',
       'if tag.startswith("nr")}')
mutant("Z8", 'if freq >= 100 and w not in names', 'if freq >= 100')
mutant("Z9", 'if len(word) == 3 and tag == "nr" and word[0] in _ALL_SURNAMES:', 'if len(word) == 3 and tag == "nr":')
mutant("Z10", '    if start in cuts:\n        return start\n    after',
       '    if False:\n        return start\n    after')
mutant("Z11", 'if text[after] not in _ALL_SURNAMES:', 'if False:')
mutant("Z12", 'return after if end - after >= 2 else end', 'return after if end - after >= 1 else end')
mutant("Z13", 'return after if end - after >= 2 else end', 'return after')
mutant("Z14", 'for b in range(max(0, start - 3), start)):', 'for b in range(max(0, start - 2), start)):')
mutant("Z15", "return part in tuple(_AFTER_NAME) or (len(part) == 2 and set(part) <= _lexicon().rare)",
       "return part in tuple(_AFTER_NAME)")
mutant("Z16", "return part in tuple(_AFTER_NAME) or (len(part) == 2 and set(part) <= _lexicon().rare)",
       "return len(part) == 2 and set(part) <= _lexicon().rare")
mutant("Z17", "return value in names or (value not in common", "return (value not in common")
mutant("Z18", "or (len(value) == 3 and value[2] in given)))", "or (len(value) == 3)))")
mutant("Z19", 'return value[1:2] in tuple(_SHORT_TITLES) and value[:2] not in _COMPOUND',
       'return value[1:2] in tuple(_SHORT_TITLES)')
mutant("Z20", 'if max(c for c in [lo, *cuts] if c < end) <= start and words.get(text[start:after]):', 'if False:')
mutant("Z21", 'single = end - before == 1 and before >= least', 'single = end - before == 1')
mutant("Z22", '(text[before] in _AFTER_NAME or (known and last in rare))', '(text[before] in _AFTER_NAME)')
mutant("Z23", '"处理人", "派件员", "快递员", "司机", "朋友", "同事", "床",',
       '"处理人", "派件员", "快递员", "司机", "朋友", "同事",')
mutant("Z24", '"医生", "医师", "护士", "护士长",', '"医生", "医师", "护士",')
# logs/__init__.py: find_logs' walk and what it has listed
mutant("L1", 'return name < self.name and _walked(Path(real))', 'return name <= self.name and _walked(Path(real))')
mutant("L2", 'return name < self.name and _walked(Path(real))', 'return _walked(Path(real))')
mutant("L3", 'return folder in self.folders and _walked(Path(real))', 'return folder in self.folders')
mutant("L4", 'return not self.files or os.path.join(self.folder, path.name) not in self.files', 'return True')
mutant("L5", '        if real in self.folders:\n            return False',
       '        if False:\n            return False')
mutant("L6", '        if self.folder is not None:\n            self.folders.add(self.folder)\n', '        pass\n')
mutant("L7", '    return stat.S_ISREG(mode) and not path.name.startswith(".") and _owner(path) is None',
       '    return stat.S_ISREG(mode) and _owner(path) is None')
mutant("L8", '    return stat.S_ISREG(mode) and not path.name.startswith(".") and _owner(path) is None',
       '    return stat.S_ISREG(mode) and not path.name.startswith(".")')
mutant("L9", 'read_with = {p for p, owner in owned.items() if seen.listed(os.path.realpath(owner))}',
       'read_with = set(owned)')
mutant("L10", 'elif first and _owner(path) is None and seen.first(path, link):',
       'elif first and _owner(path) is None and seen.first(path, False):')
mutant("L11", '        if real in self.files:\n            return True', '        if False:\n            return True')
mutant("L12", '            self.name = path.name\n', '')
# logs/listing.py
mutant("T1", 'start = self._ends[at - 1] + 1 if at else 0', 'start = self._ends[at - 1] if at else 0')
mutant("T2", 'if not 0 <= at < self.count:', 'if not 0 <= at <= self.count:')
mutant("T3", '        if not self.count:\n            return iter(())',
       '        if False:\n            return iter(())')
# backends.py: SIGTERM while a pool runs
mutant("B1", '        signal.signal(signal.SIGTERM, signal.SIG_DFL)', '        pass')
mutant("B2", '    signal.signal(signal.SIGTERM, interrupt)\n', '')
mutant("B3", 'signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:',
       'signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:')
mutant("B4", "        raise KeyboardInterrupt\n", "        return None\n")
mutant("B5", 'with _stopped_by_sigterm(), ProcessPoolExecutor(', 'with contextlib.nullcontext(), ProcessPoolExecutor(')
# metrics.py: exposure per dimension as a typed column
mutant("X1", 'for d, v in sorted(by_dimension.items())]', 'for d, v in by_dimension.items()]')
mutant("X2", 'return {d: float(v) for d, v in json.loads(value or "{}").items()}', 'return {}')
mutant("X3", 'return {r["dimension"]: r["exposure"] for r in value or []}', 'return {}')
mutant("X4", '_aggregate(table, ["group", "task_id", "dimension"])', '_aggregate(table, ["group", "dimension"])')
mutant("X5", 'leaked_share=(pl.col("grade") >= MOSTLY).mean(),', 'leaked_share=(pl.col("grade") > MOSTLY).mean(),')
mutant("X6", 'return grade >= MOSTLY', 'return grade > MOSTLY')
mutant("X7", 'exposure=(pl.col("grade") * pl.col("weight")).sum() / pl.col("weight").sum(),',
       'exposure=pl.col("grade").mean(),')
# console.py: usd()
mutant("D1", 'digits = 4 if value == 0 or abs(value) >= 0.001 else',
       'digits = 4 if value == 0 or abs(value) > 0.001 else')
mutant("D2", 'else 1 - math.floor(math.log10(abs(value)))', 'else 2 - math.floor(math.log10(abs(value)))')
mutant("D3", 'else 1 - math.floor(math.log10(abs(value)))', 'else -math.floor(math.log10(abs(value)))')
mutant("D4", 'digits = 4 if value == 0 or abs(value) >= 0.001 else', 'digits = 4 if value == 0 or value >= 0.001 else')
mutant("D5", 'digits = 4 if value == 0 or abs(value) >= 0.001 else', 'digits = 4 if abs(value) >= 0.001 else')
mutant("D6", 'return f"{sign}{value:,.{digits}f}"', 'return f"{sign}{value:.{digits}f}"')
# cli/intercept.py: the stop summary
mutant("S1", 'if r.ts >= since and r.model_call]', 'if r.model_call]')
mutant("S2", 'if r.ts >= since and r.model_call]', 'if r.ts >= since]')
mutant("S3", "unpriced = [r for r in rows if r.billed_usd is None]", "unpriced: list[ProxyRecord] = []")
mutant("S4", "{tokens(counts[0])} input / \"", "{tokens(counts[1])} input / \"")
mutant("S5", '    if recorded:\n        lines.append(f"audit them', '    if True:\n        lines.append(f"audit them')
mutant("S6", 'per_model.setdefault(record.model or "?", []).append(record)',
       'per_model.setdefault("?", []).append(record)')
mutant("S7", "for signum in (signal.SIGINT, signal.SIGTERM)}\n", "for signum in (signal.SIGINT,)}\n")
mutant("S8", "signal.signal(signum, server.handle_exit) for signum", "signal.signal(signum, signal.SIG_IGN) for signum")
mutant("S9", '    started = time.time()\n', '    started = 0.0\n')
mutant("S10", "calls = [r for r in recorded if r.forwarded]", "calls = recorded")
mutant("S11", "{plural(sum(r.redactions or 0 for r in redacted), 'value')}", "{plural(len(redacted), 'value')}")
mutant("TT1", "or r.output_tokens is not None or r.billed_usd == 0]", "or r.output_tokens is not None or True]")
mutant("TT2", "or r.output_tokens is not None or r.billed_usd == 0]", "or r.output_tokens is not None]")  # ICI5 before
mutant("TT3", "if len(counted) == len(calls) else None", "if counted else None")  # ICI7 before
# logs/openhands.py: a call priced from the running totals
mutant("O1", 'if grown["prompt_tokens"] <= 0 or min(grown.values()) < 0:',
       'if grown["prompt_tokens"] < 0 or min(grown.values()) < 0:')
mutant("O2", 'if grown["prompt_tokens"] <= 0 or min(grown.values()) < 0:', 'if grown["prompt_tokens"] <= 0:')
mutant("O3", '            self.totals = None  # a call without totals', '            pass  # a call without totals')
mutant("O4", '        if before is None:\n            return None', '        if False:\n            return None')
mutant("O5", 'grown = {k: now[k] - before.get(k, 0) for k in keys}', 'grown = {k: now[k] for k in keys}')
mutant("O6", '"prompt_tokens_details": {"cached_tokens": grown["cache_read_tokens"]},', '')
mutant("O7", 'usage=normalize_usage(response.get("usage") or grown)',
       'usage=normalize_usage(grown or response.get("usage"))')
mutant("O8", '"cache_creation_input_tokens": grown["cache_write_tokens"]}', '}')
mutant("O9", 'self.totals: dict[str, int] | None = {}', 'self.totals: dict[str, int] | None = None')
# logs/report.py: why calls are unpriced
mutant("Q1", 'bare = row.get("calls_without_usage") or 0', "bare = unpriced")
mutant("Q2", 'bare = row.get("calls_without_usage") or 0', "bare = 0")
# intercept/media.py: files a request carries
mutant("M1", '_HEAD = 24', '_HEAD = 12')
mutant("M2", '(0, b"%PDF-", "application/pdf"), ', '')
mutant("M3", 'for encode in (base64.b64encode, base64.urlsafe_b64encode)', 'for encode in (base64.b64encode,)')
mutant("M4", '    except ValueError:  # a damaged or encrypted file',
       '    except KeyError:  # a damaged or encrypted file')
mutant("M5", 'if len(text) - at < _HEAD or text[at:at + 4] not in _LEADS:', 'if text[at:at + 4] not in _LEADS:')
mutant("M6", 'raw = base64.b64decode(data + "=" * (-len(data) % 4))', 'raw = base64.b64decode(data)')
mutant("M7", 'return Reading("\\n".join([*meta, *(page.extract_text() or "" for page in pdf.pages)]))',
       'return Reading("\\n".join([*(page.extract_text() or "" for page in pdf.pages)]))')
mutant("M8", '            raise ValueError("encrypted")\n', '            pass\n')
# intercept/fields.py: Gemini/Bedrock untyped parts, Responses reasoning parts read as one text
mutant("J1", '"output_text", "summary_text", "reasoning_text"})', '"output_text", "reasoning_text"})')
mutant("J2", '"output_text", "summary_text", "reasoning_text"})', '"output_text", "summary_text"})')
mutant("J3", 'item.get("type", "text") in _TEXT_PARTS', 'item.get("type") in _TEXT_PARTS')
mutant("J4", 'or "type" not in item and "text" in item):', '):')


# ---- session 21 (branch s21-mutants4): the code changed in session 20 ----
# learned_grader.py: the tree walk, the thresholds, loading; and where the judge turns it on
mutant("LG1", "below = x[at, self.feature[trees, node]] <= self.split[trees, node]",
       "below = x[at, self.feature[trees, node]] < self.split[trees, node]")
mutant("LG2", "np.where(below, self.left[trees, node], self.right[trees, node]))",
       "np.where(below, self.right[trees, node], self.left[trees, node]))")
mutant("LG3", "np.exp(-(self.baseline + linear + self.value[trees, node].sum(axis=1)))",
       "np.exp(-(linear + self.value[trees, node].sum(axis=1)))")
mutant("LG4", "if p >= self.threshold and", "if p > self.threshold and")
mutant("LG5", "return verdict if verdict.grade > 0 else Verdict(MOSTLY, span, reading.start, reading.end)",
       "return Verdict(MOSTLY, span, reading.start, reading.end)")
mutant("LG6", "if p >= self.review_threshold or verdict.grade > 0 or verdict.review:",
       "if p >= self.review_threshold:")
mutant("LG7", "if p >= self.review_threshold or verdict.grade > 0 or verdict.review:",
       "if p >= self.review_threshold or verdict.grade > 0:")
mutant("LG8", "            if verdict.evidence:\n", "            if False:\n")
mutant("LG9", "except (OSError, KeyError, ValueError, TypeError) as exc:",
       "except (OSError, KeyError, ValueError) as exc:")
mutant("LG10", "if known != list(grader.names) or len(shapes) != 1", "if len(shapes) != 1")
mutant("LG11", "(grader.feature < len(grader.names)).all()", "(grader.feature <= len(grader.names)).all()")
mutant("LE1", "self.grader = LearnedGrader.load(grader) if checks and grader else None",
       "self.grader = LearnedGrader.load(grader) if grader else None")
mutant("LE2", '            self.version += f"+{self.grader.version}"\n', "            pass\n")
mutant("LJ1", "grader=GRADER_PATH if learned_grader else None)", "grader=GRADER_PATH)")
mutant("LC1", "if learned_grader is not None and (not local_judge or value_checks is False):",
       "if learned_grader is not None and not local_judge:")
mutant("LC2", "learned_grader=learned_grader is not False)", "learned_grader=bool(learned_grader))")
# digit_regions.py: where the digit view is built
mutant("DR2", "len(self._patterns) > MOST_NUMBERS", "len(self._patterns) >= MOST_NUMBERS")
mutant("DR3", "ends.append((end, pattern >= first_account))", "ends.append((end, pattern > first_account))")
mutant("DR4", "(end - 1 - ACCOUNT_MARGIN, end + ACCOUNT_MARGIN) if account",
       "(end - 1, end + ACCOUNT_MARGIN) if account")
mutant("DR5", "spans += [(start, start + 1) for start in english]", "spans += []")
mutant("DR6", "        if out and hi <= out[-1][1]:\n            continue", "        if False:\n            continue")
mutant("DR7", "after = _SAFE.search(text, max(lo, hi - 1))", "after = _SAFE.search(text, max(lo, hi))")
mutant("DR8", "hi = after.end() if after else n", "hi = after.start() if after else n")
mutant("DR11", "if k >= 0 and offset < self.regions[k][1]:", "if k >= 0 and offset <= self.regions[k][1]:")
mutant("DR12", "and (whole_start or lo == 0) and (whole_end", "and (whole_end")
mutant("DR13", "and (whole_end or hi == self._length)", "")
mutant("DR15", 'if k and ch != "x":', "if k:")
mutant("DR16", "        if len(data) == len(text):\n            chars = None",
       "        if True:\n            chars = None")
mutant("DX1", "if not regions.shows(b_start, b_end, lo == d_start - _BANK_WINDOW, hi <= len(digits.text)):",
       "if False:")
# exact.py: alnum_offsets, a one-word unit's plural
mutant("AO1", "kept += gap - sum(map(chunk.count, _ALNUM_SEPARATORS))", "kept += gap")
mutant("AO2", "        if run := _ALNUM_SEPARATOR_RUN.match(text, at):", "        if run := None:")
mutant("AO5", "start, end = back[a_start], back[a_end - 1] + 1", "start, end = back[a_start], back[a_end - 1]")
mutant("AO6", '_PLURAL = re.compile(r"e?s")', '_PLURAL = re.compile(r"s")')
mutant("AO7", "return m.end() if m and bounded(text, start, m.end()) else 0", "return m.end() if m else 0")
mutant("AO8", "if not (cu.inflects and (hit_end := plural_end(text, start, end))):",
       "if not (hit_end := plural_end(text, start, end)):")
# compiled.py: inflects, public_prefix; secrets.py: the published prefixes; masked.py: the prefix not counted
mutant("CP1", "return len(value) >= 5 and value.isalpha() and value.islower()",
       "return len(value) >= 4 and value.isalpha() and value.islower()")
mutant("CP2", "return len(value) >= 5 and value.isalpha() and value.islower()",
       "return len(value) >= 5 and value.isalpha()")
mutant("CP4", '    if rules.name != "credential" or not forms:\n        return ""',
       '    if not forms:\n        return ""')
mutant("PK1", '"sk_live_", "sk_test_", "pk_live_"', '"sk_test_", "pk_live_"')
mutant("PK2", "), key=len, reverse=True))", "), key=len))")
mutant("PK3", "folded.startswith(p) and len(folded) > len(p)", "folded.startswith(p)")
mutant("PK4", "folded = value.casefold()", "folded = value")
mutant("MK1", "secret, secret_len = visible - min(len(pieces[0]), prefix), unit_len - prefix",
       "secret, secret_len = visible - prefix, unit_len - prefix")
# logs/codex_cli.py
mutant("CX1", 'record.get("type") in _TYPES and isinstance(record.get("payload"), dict)',
       'record.get("type") in _TYPES')
mutant("CX2", '{"cached_tokens": last.get("cached_input_tokens") or 0}}', '{"cached_tokens": 0}}')
mutant("CX3", 'session, provider = str(item.get("id") or session), str(item.get("model_provider") or provider)',
       'session, provider = session, str(item.get("model_provider") or provider)')
mutant("CX4", 'model = item.get("model") or model', "model = model")
mutant("CX5", 'elif kind == "event_msg" and item.get("type") == "token_count":', 'elif kind == "event_msg":')
mutant("CX6", 'if usage and last is not None and "usage" not in last:', "if usage and last is not None:")
mutant("CX7", 'if last is None or last["role"] != "assistant" or "usage" in last:',
       'if last is None or last["role"] != "assistant":')
mutant("CX9", 'messages.append({"role": "system" if role == "developer" else "user",',
       'messages.append({"role": "user",')
mutant("CX10", '            on_error(InputError("no payload object", file=str(path), line=number, field="payload"))\n',
       "")
mutant("CX11", '_OUTPUTS = {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}',
       '_OUTPUTS = {"function_call_output", "local_shell_call_output"}')
# intercept/media.py: zip_text (caps, members, XML text), unread legacy Office, owner-password PDFs
mutant("MZ1", '(0, b"PK\\x03\\x04", "application/zip"), ', "")
mutant("MZ2", '(0, b"\\xd0\\xcf\\x11\\xe0\\xa1\\xb1\\x1a\\xe1", "application/x-ole-storage"),', "")
mutant("MZ3", "if budget < 0:", "if budget < -1:")
mutant("MZ5", "                if media_type in UNPACKERS:\n", "                if False:\n")
mutant("MZ6", 'if b"<!ENTITY" in data:', "if False:")
mutant("MZ7", '"tr", "c", "si",', '"tr", "si",')
mutant("MZ8", '_BREAKS = frozenset({"p", "h",', '_BREAKS = frozenset({"h",')
mutant("MZ9", '        if tag.rsplit("}", 1)[-1] in _SPACES:', "        if False:")
mutant("MZ11", 'return "".join(self.parts) + "\\n" + "\\n".join(self.values)',
       'return "".join(self.parts) + "\\n".join(self.values)')
mutant("MZ14", "    except ValueError:  # (over the limit, entities)\n        raise\n", "")
mutant("MP1", 'if pdf.is_encrypted and not pdf.decrypt(""):', "if pdf.is_encrypted:")
# views.py: bytes that are a text file, the decoders' fold
mutant("VB1", "_TEXT_FILE = 32", "_TEXT_FILE = 64")
mutant("VB2", 'if len(decoded) < _TEXT_FILE or "\\x00" in decoded:', "if len(decoded) < _TEXT_FILE:")
mutant("VB3", "return decoded if 2 * controls <= len(decoded) else None",
       "return decoded if controls <= len(decoded) else None")
mutant("VB4", "decoded = decoded_text(simplified, view.folded, rewriters, inner)",
       "decoded = decoded_text(simplified, view.folded if simplified is text else None, rewriters, inner)")
# intercept/redact.py: names of headers and query parameters; policy.py: a header name refused
mutant("RN1", 'for i, (kind, name, _) in enumerate(fields) if kind != "path"]',
       "for i, (kind, name, _) in enumerate(fields)]")
mutant("RN2", "            if hit.end > starts[k] + len(named[k][2]):\n", "            if False:\n")
mutant("RN3", "accumulate((len(name) + 1 for _, _, name in named), initial=0))",
       "accumulate((len(name) for _, _, name in named), initial=0))")
mutant("RN4", 'for i, hits in by_field.items() if fields[i][0] == "query"})', "for i, hits in by_field.items()})")
mutant("RN6", 'found.rows.append(self._row(f"{kind}-name:{i}", name, hit))',
       'found.rows.append(self._row(f"{kind}:{i}", name, hit))')
mutant("RN7", "        self._detect_names(fields, found)\n", "")
mutant("RN8", "new_fields = [(kind, edited(name, found.names.get(i)),", "new_fields = [(kind, name,")
mutant("PO1", 'named = [f for f in grave if f["path"].startswith("header-name:")]',
       'named = [f for f in grave if f["path"].startswith("query-name:")]')
# console.py: unknown_cost, unpriced_episodes; the report's reasons and the sessions table's columns
mutant("CU1", 'beside = f", {usd(priced)} priced" if priced else ""', 'beside = ""')
mutant("CU2", "    if unpriced < calls:\n", "    if unpriced <= calls:\n")
mutant("CU3", 'why = (" (no usage logged)" if without_usage == unpriced else',
       'why = (" (no usage logged)" if without_usage else')
mutant("CU4", "    if without_usage == calls:\n", "    if without_usage:\n")
mutant("CU5", 'return f"unknown: no price for the model{at}" if without_price else "unknown: answer cut off"',
       'return f"unknown: no price for the model{at}"')
mutant("LR1", 'if not unpriced or unpriced == row["calls"] and row["side"] != "cloud":', "if not unpriced:")
mutant("LR2", '    if unpriced == row["calls"] and not (row["input_tokens"] or row["output_tokens"]):\n',
       "    if False:\n")
mutant("LR3", 'no_price = unpriced > bare and not Pricing().priced(row["model"], tier)',
       'no_price = not Pricing().priced(row["model"], tier)')
mutant("LA1", "cloud_calls_without_usage=(~_USAGE).sum(),", "cloud_calls_without_usage=_USAGE.sum(),")
mutant("LA2", 'cloud_calls_without_price=(unpriced & _USAGE & pl.concat_str("model"',
       'cloud_calls_without_price=(unpriced & pl.concat_str("model"')
mutant("LA3", "return [_price_key(m, t) for m, t in unpriced if not pricing.priced(m, t)]",
       "return [_price_key(m, t) for m, t in unpriced]")
mutant("RS1", "cloud_usd_unknown=unpriced_episodes(unpriced, priced) if unpriced else None,", "cloud_usd_unknown=None,")
mutant("RS3", "why = unknown_cost(int(calls), int(unpriced), int(bare), int(no_price), tier)",
       "why = unknown_cost(int(calls), int(unpriced), int(no_price), int(bare), tier)")
mutant("RT1", 'row.cloud_usd_unknown or "unknown" if attr == "cloud_usd"', '"unknown" if attr == "cloud_usd"')
mutant("RH1", "_cell(_usd(r.cloud_usd, r.cloud_usd_unknown), r.cloud_usd),", "_cell(_usd(r.cloud_usd), r.cloud_usd),")
mutant("RU1", 'cost = unpriced_episodes(unpriced, usd) if unpriced else dollars(usd)',
       'cost = "unknown" if unpriced else dollars(usd)')
# forms: mojibake, rtf, office_runs, lakh, spoken_emails, spelled_out, cjk_dotted_digits
mutant("FM1", "_DEPTH = 3", "_DEPTH = 1")
mutant("FM2", "table = {chr(b): b for b in range(0x80, 0x100)}", "table = {chr(b): b for b in range(0xA0, 0x100)}")
mutant("FM3", r"[\\u00e0-\\u00ef]{_CONT}{{2}}", r"[\\u00e0-\\u00ef]{_CONT}{{1}}")
mutant("FR1", "if not -32768 <= unit <= 65535:", "if not 0 <= unit <= 65535:")
mutant("FR2", 'out.append((unit % 65536).to_bytes(2, "little"))', 'out.append((unit % 65536).to_bytes(2, "big"))')
mutant("FR3", r' ?(?:\?|(?:{_HEX}){{1,2}})?"', r' ?(?:\?)?"')
mutant("FO1", "|</(?P=ns)r>|<(?P=ns)r{_ATTRS}>|<(?P=ns)rPr{_ATTRS}/>\"", "|</(?P=ns)r>|<(?P=ns)r{_ATTRS}>\"")
mutant("FO2", 'r"</(?P<ns>(?:w:|a:)?)t>(?:\\s"', 'r"</(?P<ns>(?:w:)?)t>(?:\\s"')
mutant("FO3", '        if "text:span" in text:\n', "        if False:\n")
mutant("FL1", 'r"(?<![0-9,])[0-9]{1,2}(?:,', 'r"(?<![0-9])[0-9]{1,2}(?:,')
mutant("FL2", ",[0-9]{3}(?![0-9]|,[0-9])\")", ",[0-9]{3}(?![0-9])\")")
mutant("FE1", '_JOINERS = {"hyphen": "-", "dash": "-",', '_JOINERS = {"hyphen": "-",')
mutant("FE2", 'if "." in domain.strip(".") and _UNREAD.search(m.group()):', 'if _UNREAD.search(m.group()):')
mutant("FE3", "_MOST_JOINS = 8", "_MOST_JOINS = 2")
mutant("FE4", '_ZH_CHARACTERS = {"点": ".", "點": ".", "横杠": "-",', '_ZH_CHARACTERS = {"点": ".", "點": ".",')
mutant("FE7", 'if "." in domain.strip(".") and _ZH_SAID.search(m.group()):', 'if "." in domain.strip("."):')
mutant("FS1", "_MIN_ITEMS, _MIN_NAMED = 6, 2", "_MIN_ITEMS, _MIN_NAMED = 5, 2")
mutant("FS2", "_MIN_ITEMS, _MIN_NAMED = 6, 2", "_MIN_ITEMS, _MIN_NAMED = 6, 1")
mutant("FS3", 'same = m.group("name")[0].lower() == m.group("letter").lower()', "same = True")
mutant("FS5", "return _Item(_NAMED[word] * times, word not in ENGLISH_DIGITS)",
       "return _Item(_NAMED[word] * times, True)")
mutant("FS6", "if spaced and (item.bare or items[-1].bare):", "if spaced and item.bare:")
mutant("FS7", "or _CARDINAL_AFTER.match(text, end) or _CARDINAL_BEFORE", "or _CARDINAL_BEFORE")
mutant("FS9", "                if named < _MIN_NAMED:\n", "                if named < 1:\n")
mutant("FC1", "_MIN_DIGITS = 5", "_MIN_DIGITS = 3")
mutant("FC3", '_DOT = " ?[点點．.] ?"', '_DOT = " ?[点點．] ?"')
mutant("FC4", '"001234567891..."', '"001234567897..."')
# annotate: the imperative before a name, copyright holders, fictional phones, the possessive, titles before names
mutant("PA2", "second_given = len(words) >= 3 and words[1][0].isupper()", "second_given = len(words) >= 3")
mutant("PA3", "if second_given and _SENTENCE_START.search(text, max(0, start - 8), start) and _census_name(",
       "if second_given and _census_name(")
mutant("PA4", "        bound=_after_imperative),", "        ),")
mutant("PA5", '"foundation", "authors",', '"foundation",')
mutant("PA6", '_COMPANY_AFTER = r"(?!,?[ \\t]+', '_COMPANY_AFTER = r"(?![ \\t]+')
mutant("PA7", "return value.lower() not in PLACEHOLDER_NAMES and display_name_ok(value)",
       "return display_name_ok(value)")
mutant("PA8", '        (rf"{_MARK}(?P<value>{_HOLDER}),?[ \\t]+\\d{{4}}\\b", 0.55),\n', "")
mutant("PA10", "|{_YEARS})|{_MARK}{_YEARS})\")", "|{_YEARS})|{_MARK}(?:{_YEARS})?)\")")
mutant("CT2", 'uk = "0" + d[2:].removeprefix("0") if value.lstrip().startswith("+44") else d', "uk = d")
mutant("CT3", "return len(uk) == 11 and uk.startswith(_DRAMA_UK)", "return uk.startswith(_DRAMA_UK)")
mutant("CT5", "    if fictional_phone(value):\n        return True", "    if False:\n        return True")
mutant("CT6", "[ .-]?555[ .-]?|555[ .-])01\\d\\d", "[ .-]?555[ .-]?)01\\d\\d")
mutant("PL1", 'if possessive and r.entity_type in ("PERSON", "LOCATION"):', "if False:")
mutant("PL2", "_POSSESSIVE = re.compile(r\"(?<=\\w)['’]s?$\")", "_POSSESSIVE = re.compile(r\"(?<=\\w)'s?$\")")
mutant("ZR1", "            not _ROLE_ENDS.search(text, max(0, after - _LONGEST_ROLE), after):",
       "            _ROLE_ENDS.search(text, max(0, after - _LONGEST_ROLE), after):")

# --- session 22's round: the code changed in session 21 (GROUPS_S22) ---------------------------------------------
# intercept/usage.py: the service tier, web searches
mutant("SU1", "return DEFAULT_TIER if tier in _STANDARD else tier", "return tier")
mutant("SU2", '_STANDARD = frozenset({"auto", DEFAULT_TIER, "standard", "standard_only", "on_demand"})',
       '_STANDARD = frozenset({DEFAULT_TIER, "standard", "standard_only", "on_demand"})')
mutant("SU3", "return tier if isinstance(tier, str) and tier else None",
       "return tier if isinstance(tier, str) else None")
mutant("SU4", "return None if usage is None else replace(usage, tier=service_tier(response, request))",
       "return None if usage is None else replace(usage, tier=service_tier(request, response))")
mutant("SU5", 'return _int(tools.get("web_search_requests")) if isinstance(tools, dict) else 0', "return 0")
mutant("SU6", "                     _web_searches(usage))\n", "                     0)\n")
mutant("SU7", "min(_int(ttl.get(\"ephemeral_1h_input_tokens\")), write), _web_searches(usage))",
       "min(_int(ttl.get(\"ephemeral_1h_input_tokens\")), write), 0)")
# intercept/pricing.py: rates per tier, `priced`, web searches, LiteLLM's `_flex`/`_priority` keys
mutant("SP1", "rates = self.rates if tier == DEFAULT_TIER else self.service_tiers.get(tier)",
       "rates = self.rates if tier == DEFAULT_TIER else self.service_tiers.get(tier, self.rates)")
mutant("SP2", "rates = self.rates if tier == DEFAULT_TIER else self.service_tiers.get(tier)", "rates = self.rates")
mutant("SP3", "return None if rates is None else [r for r in rates if prompt_tokens > r.above or r.above == 0][-1]",
       "return None if rates is None else [r for r in rates if prompt_tokens > r.above or r.above == 0][0]")
mutant("SP4", '_LITELLM_TIERS = {"flex": "_flex", "priority": "_priority", "batch": "_batches"}',
       '_LITELLM_TIERS = {"flex": "_flex", "batch": "_batches"}')
mutant("SP5", 'served = {tier: found for tier, suffix in _LITELLM_TIERS.items() if (found := rates(suffix)) '
              'is not None}',
       "served: dict[str, tuple[Rate, ...]] = {}")
mutant("SP6", 'tiers = [rate(f"_above_{m.group(1)}k_tokens{served}", int(m.group(1)) * 1000)',
       'tiers = [rate(f"_above_{m.group(1)}k_tokens", int(m.group(1)) * 1000)')
mutant("SP7", 'search = searches.get("search_context_size_medium") if isinstance(searches, dict) else None',
       'search = searches.get("search_context_size_low") if isinstance(searches, dict) else None')
mutant("SP8", "            + usage.web_searches * entry.web_search\n", "\n")
mutant("SP9", 'if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:',
       "if isinstance(value, int | float):")
mutant("SP10", 'return {tier: _rates(rates, f"{where}.service_tier.{tier}", file) for tier, rates in data.items()}',
       "return {}")
mutant("SP11", "return entry is not None and entry.rate(0, tier or DEFAULT_TIER) is not None",
       "return entry is not None")
mutant("SP12", "if (model, usage.tier) not in self._warned:", "if model not in self._warned:")
mutant("SP13", 'if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):',
       "if not isinstance(data, dict):")
# cli/intercept.py: the stop summary's reasons
mutant("SI1", "return record.input_tokens is not None or record.output_tokens is not None",
       "return record.input_tokens is not None")
mutant("SI2", "if not pricing.priced(r.model, tier)]", "if not pricing.priced(r.model)]")
mutant("SI3", "next((t for t in unknown if t != DEFAULT_TIER), None))", "None)")
mutant("SI4", "tiers = [service_tier(r.response, r.request) for r in counted]",
       "tiers = [service_tier(r.request) for r in counted]")
mutant("SI5", "click.echo(_stopped(store, started, app.state.interceptor.pricing), err=True)",
       "click.echo(_stopped(store, started, Pricing()), err=True)")
# logs: the tier a log names (report's providers table, audit's sessions table)
mutant("SR1", 'tier = row.get("unpriced_tier")', "tier = None")
mutant("SA1", "pl.col(\"cost_usd\").is_null() & _USAGE & (pl.col(\"service_tier\") != DEFAULT_TIER)).first())",
       "pl.col(\"cost_usd\").is_null() & _USAGE).first())")
mutant("SA2", 'usage.get("service_tier") or DEFAULT_TIER),', "DEFAULT_TIER),")
mutant("SA3", 'usage.get("cache_write_1h_tokens") or 0, usage.get("web_searches") or 0,',
       'usage.get("cache_write_1h_tokens") or 0, 0,')
# detect/compiled.py: the compile cache (its key, reading back, writing)
mutant("KC1", "if (cached := _read_cached(path, units, taxonomy)) is not None:\n        return cached",
       "if False:\n        return None")
mutant("KC2", 'key.update(f"{unit.model_dump_json()}\\n{rules}\\n".encode())', 'key.update(f"{rules}\\n".encode())')
mutant("KC3", 'key.update(f"{unit.model_dump_json()}\\n{rules}\\n".encode())',
       'key.update(f"{unit.model_dump_json()}\\n".encode())')
mutant("KC4", 'key.update(f"{source.relative_to(root)} {source.stat().st_size} ".encode() + source.read_bytes())',
       'key.update(f"{source.relative_to(root)} {source.stat().st_size} ".encode())')
mutant("KC5", "        if len(data[\"units\"]) != len(units):\n            return None\n", "")
mutant("KC6", "    except (OSError, ValueError, KeyError, TypeError):\n        return None",
       "    except (OSError, KeyError, TypeError):\n        return None")
mutant("KC7", "        path.touch()  # the most recently used are kept\n", "")
mutant("KC8", "if syllables is not None and not _cached_syllables:", "if False:")
mutant("KC9", "syllables = sorted(given_name_syllables()) if any(c.romanized for c in compiled) else None",
       "syllables = None")
mutant("KC10", "return {name: tuple(v) if isinstance(v, list) else v for name, v in zip(_DERIVED, row, strict=True)}",
       "return {name: v for name, v in zip(_DERIVED, row, strict=True)}")
mutant("KC11", "    if len(row) != len(_DERIVED):\n", "    if False:\n")
mutant("KC12", '" ".join([sys.version, *(version(p) for p in _DATA_PACKAGES)])',
       '" ".join([*(version(p) for p in _DATA_PACKAGES)])')
# detect/matchers.py: store_cached (private, pruned per kind, a file pruned meanwhile)
mutant("KM1", 'for old in sorted(folder.glob(f"*{path.suffix}"), key=_modified, reverse=True)[_CACHE_KEPT:]:',
       'for old in sorted(folder.glob("*"), key=_modified, reverse=True)[_CACHE_KEPT:]:')
mutant("KM2", 'for old in sorted(folder.glob(f"*{path.suffix}"), key=_modified, reverse=True)[_CACHE_KEPT:]:',
       'for old in sorted(folder.glob(f"*{path.suffix}"), key=_modified)[_CACHE_KEPT:]:')
mutant("KM3", "    folder.chmod(0o700)\n", "")
mutant("KM4", "    except FileNotFoundError:\n        return 0.0", "    except OSError:\n        raise")
mutant("KM5", '    with open_private(partial, "wb") as out:', '    with open(partial, "wb") as out:')
# detect/cascade.py: scan_texts, the seams scanned in the same batch
mutant("BC1", "if key not in self._cache]):", "]):")
mutant("BC2", "if (first.message_index, first.origin) == (second.message_index, second.origin)",
       "if first.message_index == second.message_index")
mutant("BC3", "            and first.text and second.text]", "            ]")
mutant("BC4", "offset = len(segments[k].text) - len(head)", "offset = 0")
mutant("BC5", "return [(k, first.text[-_SEAM:], second.text[:_SEAM])",
       "return [(k, first.text[-_SEAM:], second.text[:_SEAM - 1])")
# detect/cues.py: the batched cue pass
mutant("BQ1", "short = [text for text in dict.fromkeys(texts) if len(text) < _SHORT]",
       "short = [text for text in dict.fromkeys(texts) if len(text) <= _SHORT]")
mutant("BQ2", "owned[bisect_right(starts, end - 1) - 1][cue] += 1", "owned[bisect_right(starts, end) - 1][cue] += 1")
mutant("BQ3", "            at += len(data) + 1\n        owned", "            at += len(data)\n        owned")
mutant("BQ4", "            size += len(data) + 1\n", "            size += 1\n")
mutant("BQ5", "return [r for read, k in plan if k is None or k in cues for r in read(text)]",
       "return [r for read, k in plan if k in cues for r in read(text)]")
mutant("BQ6", "            self._local.held = outer\n", "            self._local.held = None\n")
mutant("BQ7", "if chunk and size + len(data) > _BATCH:", "if chunk:")
mutant("BQ8", "for (text, _), cues in zip(chunk, owned, strict=True))",
       "for (text, _), cues in zip(chunk, owned[1:] + owned[:1], strict=True))")
mutant("BQ9", "_SHORT = 4096", "_SHORT = 40960")
# intercept/redact.py: _cover and _union (a joined text's spans over the pieces' own)
mutant("RC1", "if out and start < out[-1][1]:", "if out and start < out[-1][0]:")
mutant("RC2", "            if rank > ranks[-1]:\n", "            if rank < ranks[-1]:\n")
mutant("RC3", "out[-1] = (first, max(last, end), named)", "out[-1] = (first, end, named)")
mutant("RC4", "                kept += [(s, lo - origin, u)] if at < lo else []\n", "")
mutant("RC5", "                kept += [(hi - origin, e, u)] if to > hi else []\n", "")
mutant("RC6", "ranked.append((max(at, lo), min(to, hi), u, (e - s, 0)))", "ranked.append((at, to, u, (e - s, 0)))")
mutant("RC7", "            if not kept:\n                found.body.pop(piece.site, None)\n", "")
mutant("RC8", 'ranked = [(s, e, u, (e - s, 1)) for s, e, u in spans]',
       'ranked = [(s, e, u, (e - s, 0)) for s, e, u in spans]')
mutant("RC9", "        for a, b in piece.joined:\n", "        for a, b in []:\n")
mutant("RC10", "windows = [(lo, hi, min(0, hi - piece.size) if k == 0 else lo)",
       "windows = [(lo, hi, hi - piece.size if k == 0 else lo)")
mutant("RC11", 'found.unread.extend({"path": where, "member": member.path, "media_type": member.media_type,',
       'found.unread.extend({"path": where, "media_type": member.media_type,')
# intercept/fields.py: an array that spells a text
mutant("JS1", "    if len(value) < 2:\n        return None\n", "")
mutant("JS2", 'if all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):',
       "if all(isinstance(v, int | float) for v in value):")
mutant("JS3", 'return [number_text(v) for v in value], ","', 'return [number_text(v) for v in value], ", "')
mutant("JS4", 'literal_only = joint == "," or is_protocol(pieces[0])', "literal_only = is_protocol(pieces[0])")
mutant("JS5", "first, last = bisect.bisect_right(ends, start), bisect.bisect_left(starts, end) - 1",
       "first, last = bisect.bisect_left(ends, start), bisect.bisect_left(starts, end) - 1")
mutant("JS6", "first, last = bisect.bisect_right(ends, start), bisect.bisect_left(starts, end) - 1",
       "first, last = bisect.bisect_right(ends, start), bisect.bisect_left(starts, end)")
mutant("JS7", "        at = max(at, last + 1)\n", "        at = last + 1\n")
mutant("JS8", "return spelled if spelled is not None else items if changed else value", "return items")
mutant("JS9", "if all(isinstance(v, str) and len(v) == 1 for v in value):",
       "if all(isinstance(v, str) for v in value):")
# intercept/media.py: an Office file's members named unread
mutant("MM1", 'media_type = signature(content) or "application/octet-stream"',
       'media_type = "application/octet-stream"')
mutant("MM2", 'pending.append((f"{inside}{name}/", content))', 'pending.append(("", content))')
mutant("MM3", "unread.append(Member(inside + name, media_type, len(content)))",
       "unread.append(Member(name, media_type, len(content)))")
mutant("MM4", "return Reading(\"\\n\".join(texts), tuple(unread))", "return Reading(\"\\n\".join(texts))")
mutant("MM5", "        text, unread = read(raw)\n        return Part(kind, len(raw), text, unread)",
       "        text, unread = read(raw)\n        return Part(kind, len(raw), text)")
# the new forms
mutant("NS1", "_LEAST_EXPONENT = 3", "_LEAST_EXPONENT = 1")
mutant("NS2", "if len(decimals) <= exponent:", "if len(decimals) <= exponent + 1:")
mutant("NS3", 'return start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._")',
       "return start > 0 and text[start - 1].isalnum()")
mutant("NS4", 'yield mantissa.start(), m.end(), whole + decimals + "0" * (exponent - len(decimals))',
       'yield mantissa.start(), m.end(), whole + decimals')
mutant("NS5", '_EXPONENT = re.compile(r"\\+(?<=[0-9][Ee]\\+)([0-9]{1,2})(?!\\w|\\.[0-9])")',
       '_EXPONENT = re.compile(r"\\+(?<=[0-9][Ee]\\+)([0-9]{1,2})(?!\\w)")')
mutant("NG1", '        if "{\\\\rtf" not in text:\n            return\n', "")
mutant("NG2", "            if _formatting(m.group(1)):\n                yield m.start(), m.end(), _read(m.group(2))",
       "            yield m.start(), m.end(), _read(m.group(2))")
mutant("NG3", 'yield m.start(), m.end(), _read(m.group(2))', 'yield m.start(), m.end(), m.group(2)')
mutant("NG4", '_BETWEEN = re.compile(rf"(?<=[^\\r\\n{{}}\\\\])((?:{_WORD})+)(?=[^\\s{{}}\\\\]|{_ESCAPE})")',
       '_BETWEEN = re.compile(rf"((?:{_WORD})+)(?=[^\\s{{}}\\\\]|{_ESCAPE})")')
mutant("NC1", 'codec = _CODECS.get(declared.group(1)) if declared else None', 'codec = "gbk"')
mutant("NC2", "        if _FALLBACK_AFTER.search(line, max(0, run.start() - _UNIT_BEFORE), run.start()):\n",
       "        if False:\n")
mutant("NC3", '"936": "gbk",', '"936": "cp1252",')
mutant("NC4", "            start += len(line)\n", "")
mutant("NB1", "_LEAST_BYTES = 6", "_LEAST_BYTES = 2")
mutant("NB2", "if not all(-128 <= v <= 255 for v in values):", "if not all(0 <= v <= 255 for v in values):")
mutant("NB3", 'return text if all(c.isprintable() or c in "\\t\\n\\r" for c in text) else None', "return text")
mutant("NB4", 'decoded = _text(["0x" + h for h in m.group(1).split()])', 'decoded = _text(m.group(1).split())')
mutant("NB5", "        if _PAIR.search(text):\n", "        if False:\n")
mutant("ND1", 'yield m.start(), m.end(), bytes.fromhex(m.group().replace("%25", "")).decode("utf-8")',
       'yield m.start(), m.end(), bytes.fromhex(m.group().replace("%25", "")).decode("latin-1")')
mutant("ND2", '_RUN = re.compile(r"(?:%25[0-9A-Fa-f]{2})+")', '_RUN = re.compile(r"%25[0-9A-Fa-f]{2}")')
mutant("NU1", "_LEAST_CHARACTERS = 4", "_LEAST_CHARACTERS = 1")
mutant("NU2", '_PAIRS = re.compile(rf"(?:[ -~]\\x00){{{_LEAST_CHARACTERS},}}|(?:\\x00[ -~]){{{_LEAST_CHARACTERS},}}")',
       '_PAIRS = re.compile(rf"(?:[ -~]\\x00){{{_LEAST_CHARACTERS},}}")')
mutant("NI1", "if spelling is not None and spelling != m.group():", "if spelling is not None:")
mutant("NI2", 'value = compiled.unit.value.strip().strip("[]")', "value = compiled.unit.value.strip()")
mutant("NI3", "        return bool(self.spellings)\n", "        return True\n")
mutant("NI4", '_TOKEN = re.compile(r"(?<![\\w:.])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]{2,39}"',
       '_TOKEN = re.compile(r"(?<![\\w:.])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]{2,29}"')
mutant("NO1", "if run and m.start() - 1 > run[-1] + 3:", "if run and m.start() - 1 > run[-1] + 2:")
mutant("NO2", "    end += end < len(text) and text[end] not in \"\\x08\\n\"\n", "")
mutant("NO3", "hidden = {*struck, *(k + 1 for k in struck)}", "hidden = {*(k + 1 for k in struck)}")
# annotate: person rules, plural keys, lists of people, labels, `|` pairs, ring-me phones, record fields
mutant("AP1", "return words[0].upper() in _census()[0] or not all(w in _english_words() for w in words)",
       "return not all(w in _english_words() for w in words)")
mutant("AP2", "return words[0].upper() in _census()[0] or not all(w in _english_words() for w in words)",
       "return words[0].upper() in _census()[0] or not any(w in _english_words() for w in words)")
mutant("AP3", '_TITLE = r"(?<![\\w.])(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof)\\.?[ \\t]+"',
       '_TITLE = r"(?<![\\w.])(?:Mr|Mrs|Ms|Mx|Miss|Prof)\\.?[ \\t]+"')
mutant("AP4", '(rf"{_TITLE}(?P<value>{_NAME_WORD} {_NAME_WORD})(?![\\w@])", 0.55),',
       '(rf"{_TITLE}(?P<value>{_NAME_WORD}(?: {_NAME_WORD})?)(?![\\w@])", 0.55),')
mutant("AP5", '_UPPER, _LOWER = "A-ZÀ-ÖØ-ÞĀ-Ž", "a-zß-öø-ÿā-ž"', '_UPPER, _LOWER = "A-Z", "a-z"')
mutant("AP6", 'r"[ \\t]*<[^<>@\\s]+@[^<>\\s]+>|[ \\t]*\\([^()@\\s]+@[^()\\s]+\\)|"',
       'r"[ \\t]*<[^<>@\\s]+@[^<>\\s]+>|"')
mutant("AP7", "    ), validate=display_name_ok),  # `On-call: Platform Team` is a team's",
       "    )),  # `On-call: Platform Team` is a team's")
mutant("AC1", '(?:call|ring|text|reach) (?:me|us|him|her|them) (?:on|at)|', "call (?:me|us|him|her) (?:on|at)|")
mutant("AL1", "        if key.endswith(\"s\") and key[:-1] in KEY_HINTS:", "        if False:")
mutant("AL2", "if dim == \"person_name\" and not (_name_like(value) or _name_list(value)):",
       "if dim == \"person_name\" and not _name_like(value):")
mutant("AL3", "return spans if len(spans) > 1 else []", "return spans")
mutant("AL4", "if not (_LISTED_NAME.fullmatch(item) and all(w[0].isupper() for w in item.split())):",
       "if not _LISTED_NAME.fullmatch(item):")
mutant("AL5", '_NAME_SEPARATOR = re.compile(r"\\s*(?:[,;，；、]|\\band\\b|&)\\s*")',
       '_NAME_SEPARATOR = re.compile(r"\\s*(?:[,;，；、]|&)\\s*")')
mutant("AL6", "        if entity == \"LOCATION\" and _LABEL_START.fullmatch(line_before) "
       "and _LABEL_END.match(line_after):\n",
       "        if False:\n")
mutant("AL7", '_SLUG = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")',
       '_SLUG = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)+")')
mutant("AL8", "    if re.fullmatch(r\"[\\u4e00-\\u9fff]{2,4}\", v):\n        return placed_name_ok(v)\n", "")
mutant("AL9", "item = value[at:cut.start() if cut else len(value)].rstrip(\".\")",
       "item = value[at:cut.start() if cut else len(value)]")
mutant("AW1", '_NEXT_PAIR = re.compile(r"(?:[ \\t]*[,，;；、|｜][ \\t]*',
       '_NEXT_PAIR = re.compile(r"(?:[ \\t]*[,，;；、][ \\t]*')
mutant("AD1", 'found_as_record = _FIELD_NUMBER.sub("", unit.field) in RECORD_FIELDS',
       "found_as_record = unit.field in RECORD_FIELDS")
mutant("AD2", "if dimension in (\"financial\", \"health\") and (record_number(value) or found_as_record",
       "if dimension in (\"financial\", \"health\") and (record_number(value)")
# detect/learned_grader.py: the tree walk, loading and thresholds not reached by session 21's round
mutant("LV1", "node = np.where(self.leaf[trees, node], node,", "node = np.where(False, node,")
mutant("LV2", "(0 <= grader.left).all() and (grader.left < arrays[0].shape[1]).all()",
       "(0 <= grader.left).all()")
mutant("LV3", "or len(shapes) != 1 or arrays[0].ndim != 2 or (", "or len(shapes) != 1 or (")
mutant("LV4", "float(data[\"threshold\"]),\n                         float(data[\"review_threshold\"]), weights, band)",
       "float(data[\"threshold\"]),\n                         float(data[\"threshold\"]), weights, band)")

# --- session 23's round: the code changed in session 22 (GROUPS_S23) ---------------------------------------------
# intercept/usage.py: Bedrock's serviceTier
mutant("TU1", 'tier = body.get("service_tier") or body.get("serviceTier")', 'tier = body.get("service_tier")')
mutant("TU2", 'tier = tier.get("type") if isinstance(tier, dict) else tier', 'tier = tier')
mutant("TU3", "    if not isinstance(body, dict):\n        return None\n    tier = body.get(",
       "    if not body:\n        return None\n    tier = body.get(")
mutant("TU4", "        if (tier := _named_tier(body)) is not None:\n            return",
       "        if (tier := _named_tier(body)) is not None and body is bodies[0]:\n            return")
# logs/audit.py, report/summary.py: the sessions table's unpriced tier
mutant("TA1", "cloud_unpriced_tier=_TIER.filter(unpriced & _USAGE & (_TIER != DEFAULT_TIER)).first())",
       "cloud_unpriced_tier=_TIER.filter(unpriced & _USAGE).first())")
mutant("TA2", "cloud_unpriced_tier=_TIER.filter(unpriced & _USAGE & (_TIER != DEFAULT_TIER)).first())",
       "cloud_unpriced_tier=pl.lit(None, pl.String))")
mutant("TA3", "if k not in (*CLOUD_USAGE, UNPRICED_TIER)}", "if k not in CLOUD_USAGE}")
mutant("TS1", "tier = next((s[UNPRICED_TIER] for s in sessions if s.get(UNPRICED_TIER)), None)", "tier = None")
mutant("TS2", 'for name in ("calls_without_content", *CLOUD_USAGE, UNPRICED_TIER):',
       'for name in ("calls_without_content", *CLOUD_USAGE):')
# intercept/dialects.py: Bedrock InvokeModel's path
mutant("BD1", "invoke(?:-with-response-stream)?)$", "invoke-with-response-stream)$")
mutant("BD2", "return unquote(match.group(1) or match.group(2)) if match else None",
       "return (match.group(1) or match.group(2)) if match else None")
mutant("BD3", 'r"/model/([^/]+)/(?:converse', 'r"/model/([^/:]+)/(?:converse')
# logs/openai_log.py: bedrock-runtime hosts
mutant("BH1", 'if host.startswith(("bedrock-runtime.", "bedrock-runtime-fips.")) and host.endswith(".amazonaws.com"):',
       'if host.startswith(("bedrock-runtime-fips.",)) and host.endswith(".amazonaws.com"):')
mutant("BH2", 'and host.endswith(".amazonaws.com"):', 'and host.endswith(".amazonaws.com.cn"):')
mutant("BH3", "service_tier(response, record, body)) or _unbilled(", "service_tier(response, record)) or _unbilled(")
# intercept/pricing.py: Vertex AI's hosts
mutant("VX1", 'if host == _VERTEX or host.endswith("-" + _VERTEX):', "if host == _VERTEX:")
mutant("VX2", 'if host == _VERTEX or host.endswith("-" + _VERTEX):',
       'if host == _VERTEX or host.endswith("." + _VERTEX):')
mutant("VX3", '        return "vertex_ai"\n', '        return "vertex"\n')
# intercept/usage.py: OpenRouter's usage.cost (billed_cost, the proxy's and the log audit's)
mutant("OB1", "if cost is None or (usage.get(\"is_byok\") and upstream is None):", "if cost is None:")
mutant("OB2", "return cost + (upstream or 0.0) if usage.get(\"is_byok\") else cost", "return cost")
mutant("OB3", "return cost + (upstream or 0.0) if usage.get(\"is_byok\") else cost",
       "return cost + (upstream or 0.0)")
mutant("OB4", "and not isinstance(value, bool) and value >= 0 else None",
       "and not isinstance(value, bool) and value > 0 else None")
mutant("OB5", 'cost = number(usage.get("cost"))', "cost = None")
mutant("OB6", 'upstream = number(details.get("upstream_inference_cost")) if isinstance(details, dict) else None',
       'upstream = None')
# logs/__init__.py, encoding.py, report.py: gzip-rotated logs
mutant("GZ1", "    if head.startswith(GZIP_MAGIC):\n        return _detect_gzip(path, fmt)\n", "")
mutant("GZ2", "found = fmt or _sniff(uncompressed_name(path), decoded_head(head, encoding) if encoding else head)",
       "found = fmt or _sniff(path, decoded_head(head, encoding) if encoding else head)")
mutant("GZ3", "    if not head.strip():\n        return InputError(\"empty file once decompressed (gzip)\"",
       "    if not head:\n        return InputError(\"empty file once decompressed (gzip)\"")
mutant("GZ4", "return LogFile(path, found, gzip_encoding(encoding)) if found",
       "return LogFile(path, found, encoding) if found")
mutant("GZ5", 'return InputError(f"gzip of binary data, {NOT_A_LOG}", file=str(path))',
       'pass')
mutant("GE1", 'return GZIP if inner is None else f"{GZIP}+{inner}"', "return GZIP")
mutant("GE2", 'compressed = encoding == GZIP or encoding.startswith(GZIP + "+")', "compressed = encoding == GZIP")
mutant("GE3", 'return path.with_suffix("") if path.suffix.lower() == ".gz" else path', "return path")
mutant("GE4", 'return "decompressed (gzip)" + ("" if encoding == GZIP else f", {converted}")',
       'return "decompressed (gzip)"')
mutant("GE5", "copy = Path(folder) / (uncompressed_name(path).name if compressed else path.name)",
       "copy = Path(folder) / path.name")
mutant("GE6", 'return compressed, (encoding.partition("+")[2] or "utf-8") if compressed else encoding',
       'return compressed, encoding.partition("+")[2] or "utf-8"')
mutant("GR1", "converted = [f for f in summary[\"files\"] if f[\"encoding\"]]",
       "converted = [f for f in summary[\"files\"] if f[\"encoding\"] and \"gzip\" not in f[\"encoding\"]]")
# annotate/workspace.py: the readers (cards, events, binary documents, mails, encodings, `;` CSVs, the BOM)
mutant("WS1", 'bom = 1 if text.startswith("\\ufeff") else 0', "bom = 0")
mutant("WS2", 'keys = [h.lstrip("\\ufeff").strip() for h in next(rows)]', "keys = [h.strip() for h in next(rows)]")
mutant("WS3", 'return ";" if head.count(";") > head.count(",") else ","', 'return ","')
mutant("WS4", 'return ";" if head.count(";") > head.count(",") else ","',
       'return ";" if head.count(";") >= head.count(",") else ","')
mutant("WS5", "            n += 1\n            entity = f\"{file}#{n}\"\n        fields += [",
       "            entity = f\"{file}#{n}\"\n        fields += [")
mutant("WS6", 'for part in ("params", "value")', 'for part in ("value",)')
mutant("WS7", '".ics": re.compile(r"BEGIN:V(?:EVENT|TODO|JOURNAL)$", re.I)}',
       '".ics": re.compile(r"BEGIN:V(?:TODO|JOURNAL)$", re.I)}')
mutant("WS8", "if path.suffix.lower() == \".eml\" and (shown := _mail_text(raw)) is not None:",
       "if False and (shown := _mail_text(raw)) is not None:")
mutant("WS9", "if not key.lower().startswith((\"content-\", \"mime-\"))]", "]")
mutant("WS10", "parts = [part.get_content() for part in message.walk() if part.get_content_maintype() == \"text\"]",
       "parts = [message.get_body().get_content()]")
mutant("WS11", "encoding = None if signature(raw) else text_encoding(raw, complete=True)",
       "encoding = text_encoding(raw, complete=True)")
mutant("WS12", "        if decoded is None or \"\\x00\" in decoded:\n", "        if decoded is None:\n")
mutant("WS13", "    read = media.READERS.get(kind or \"\")\n    if read is None:",
       "    read = None\n    if read is None:")
mutant("WS14", '_MAIL_ENCODED = re.compile(rb"^content-transfer-encoding:[ \\t]*(?:base64|quoted-printable)|',
       '_MAIL_ENCODED = re.compile(rb"^content-transfer-encoding:[ \\t]*(?:base64)|')
mutant("WS15", "        if record and record.match(m.group(0).lstrip()):\n", "        if False:\n")
mutant("WB1", 'r"BDAY(?:;[\\w=-]+)*)\\b)(?:', 'r"BDAY)\\b)(?:')
mutant("WU1", '(rf"\\b(?<!//)[A-Z]', '(rf"\\b[A-Z]')
mutant("WC1", "(?<![\\w-])(?-i:UID))\\s*[:=]", "(?<![\\w-])(?-i:XUID))\\s*[:=]")
mutant("WC2", '(r"(?<![\\w+./-])(?<!\\d:)\\+[1-9]', '(r"(?<![\\w+./:-])(?<!\\d:)\\+[1-9]')
mutant("WP1", '_NAME_KEYS = (r"CN|(?-i:FN)|candidate', '_NAME_KEYS = (r"CN|candidate')
# intercept/fields.py: an array's chunks (`_chunked`, `_APART`, `_join_chunks`) and chained joins (`_chains`)
mutant("JC1", 'return len(value) >= 2 and not is_protocol((*path, 0)) and _shape(path) not in _APART',
       'return len(value) >= 3 and not is_protocol((*path, 0)) and _shape(path) not in _APART')
mutant("JC2", 'return len(value) >= 2 and not is_protocol((*path, 0)) and _shape(path) not in _APART',
       'return len(value) >= 2 and not is_protocol((*path, 0))')
mutant("JC3", '_APART = frozenset(tuple(p.split(".")) for p in ("input", "prompt", "stop", "stop_sequences",',
       '_APART = frozenset(tuple(p.split(".")) for p in ("prompt", "stop", "stop_sequences",')
mutant("JC4", "and all(isinstance(v, str) and _json_text(v) is None for v in value)",
       "and all(isinstance(v, str) for v in value)")
mutant("JC5", "if chains and chains[-1][-1] == a and sizes[a] <= JOIN_REACH:",
       "if chains and chains[-1][-1] == a and sizes[a] < JOIN_REACH:")
mutant("JC6", "if chains and chains[-1][-1] == a and sizes[a] <= JOIN_REACH:",
       "if chains and chains[-1][-1] == a:")
mutant("JC7", "return [[a, b] for a, b in links] + [chain for chain in chains if len(chain) > 2]",
       "return [chain for chain in chains]")
mutant("JC8", "return [[a, b] for a, b in links] + [chain for chain in chains if len(chain) > 2]",
       "return [[a, b] for a, b in links]")
mutant("JC9", "for chain in _chains([len(t) for t in items], [(k - 1, k) for k in range(1, len(items))]):",
       "for chain in _chains([len(t) for t in items], [(k - 1, k) for k in range(2, len(items))]):")
mutant("JC10", "return joined if joined is not None else items if changed else value",
       "return items if changed else value")
mutant("JC11", '"generationConfig.stopSequences"))', '))')
# intercept/redact.py: a run of three reads what a pair found
mutant("JR1", "hits = [h for h in hits if not _placed_before(h, pieces, windows)]", "hits = hits")
mutant("JR2", "if start < end and not any(a <= start and end <= b for a, b in piece.joined):",
       "if start < end and not any(a < start and end <= b for a, b in piece.joined):")
mutant("JR3", "if start < end and not any(a <= start and end <= b for a, b in piece.joined):",
       "if not any(a <= start and end <= b for a, b in piece.joined):")
# detect/forms: xxd -i, word_diff, format_list, encoded words cut inside a character, the quoted-printable gate
mutant("FX1", '_COMMA = r",[ \\t]*(?:\\r?\\n[ \\t]*)?"', '_COMMA = r",[ \\t]*"')
mutant("FX2", "    cue_lines = 2\n", "    cue_lines = 1\n")
mutant("FX3", '_PAIR = re.compile(r",(?<=[0-9a-fA-F],)[ \\t]*(?:\\r?\\n[ \\t]*)?-?[0-9]")',
       '_PAIR = re.compile(r",(?<=[0-9a-fA-F],)[ \\t]*-?[0-9]")')
mutant("FW1", 'old = _CHANGE.sub(lambda m: m.group(1) or "", line.group())',
       'old = _CHANGE.sub(lambda m: m.group(2) or "", line.group())')
mutant("FW2", '            if old != line.group():\n', '            if old != new:\n')
mutant("FW3", 'yield line.start(), line.end(), f"{old}\\n{new}"', 'yield line.start(), line.end(), new')
mutant("FW4", '_CHANGE = re.compile(r"\\[-([^\\n]*?)-\\]|\\{\\+([^\\n]*?)\\+\\}")',
       '_CHANGE = re.compile(r"\\[-([^\\n]*)-\\]|\\{\\+([^\\n]*)\\+\\}")')
mutant("FF1", "_LEAST_WIDTH = 40", "_LEAST_WIDTH = 80")
mutant("FF2", 'return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)', "return len(line)")
mutant("FF3", "if len(value) < 2 or len(widths) != 1 or widths.pop() < _LEAST_WIDTH:",
       "if len(value) < 2 or widths.pop() < _LEAST_WIDTH:")
mutant("FF4", "indent = lines[0].index(\" : \") + 3", "indent = lines[0].index(\" : \") + 2")
mutant("FF5", 'yield at + len(line.removesuffix("\\r")), at + len(line) + 1 + indent, ""',
       'yield at + len(line), at + len(line) + 1 + indent, ""')
mutant("FF6", "widths = {_cells(line.removesuffix(\"\\r\")) for line in value[:-1]}",
       "widths = {_cells(line.removesuffix(\"\\r\")) for line in value}")
mutant("FN1", "if raw is None or not adjacent or held is not None and held[1] != charset:",
       "if raw is None or held is not None and held[1] != charset:")
mutant("FN2", "                held = (start, charset, raw)\n", "                held = None\n")
mutant("FN3", "start, raw = (held[0], held[2] + raw) if held is not None else (m.start(), raw)",
       "start, raw = (held[0], raw + held[2]) if held is not None else (m.start(), raw)")
mutant("FN4", "if held is None and adjacent:", "if adjacent:")
mutant("FN5", "adjacent = after >= 0 and m.start() > after and text[after:m.start()].isspace()",
       "adjacent = after >= 0 and text[after:m.start()].isspace()")
mutant("FQ1", "    if written != decoded and _LINE_END.match(text, m.end()) is None:\n        return False\n", "")
mutant("FQ2", 'if written.startswith(".") and (m.start() == 0 or text[m.start() - 1] == "\\n"):',
       'if written.startswith("."):')
mutant("FQ3", 'return set(written) <= {"="}', 'return set(written) <= {"=", " "}')
mutant("FQ4", "    if not decoded.isascii():\n        return True\n", "")
mutant("FQ5", "            if declared:\n", "            if not declared:\n")
mutant("FQ6", '_DECLARED = re.compile(r"[cC](?i:ontent-transfer-encoding:[ \\t]*quoted-printable)")',
       '_DECLARED = re.compile(r"Content-Transfer-Encoding: quoted-printable")')
# run/warm.py: late files handed over
mutant("WH1", 'if left.is_dir() and (moved / "workspace").is_dir():', "if left.is_dir():")
mutant("WH2", 'target = moved / "after-turn" / path.relative_to(left)', 'target = moved / path.relative_to(left)')
mutant("WH3", "        if Path(folder) != Path(root):\n", "        if True:\n")
mutant("WH4", "            hand_over_late_files(worker.root, self.episodes)\n", "")
# cli/intercept.py: the port, the bind, the banner
mutant("SV1", "sock.bind((host, port))", "sock.bind((host, 0))")
mutant("SV2", 'raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}", field="--port") from None',
       "raise")
mutant("SV3", "click.echo(f\"ec2audit intercept: http://{host}:{listening.getsockname()[1]}/v1",
       "click.echo(f\"ec2audit intercept: http://{host}:{port}/v1")
mutant("SV4", "    server.run(sockets=[listening])\n", "    server.run()\n")
mutant("SV5", "    if not server.started:\n        sys.exit(3)", "    if False:\n        sys.exit(3)")
# intercept/server.py: serve_in_thread's stop
mutant("ST1", "        thread.join(timeout=120)\n", "        thread.join(timeout=0.01)\n")
mutant("ST2", "        server.should_exit = True\n        thread.join(timeout=120)\n",
       "        thread.join(timeout=120)\n")
# localmodel.py: --address-fd
mutant("LM1", "    if address_fd is not None:\n        with os.fdopen(address_fd",
       "    if False:\n        with os.fdopen(address_fd")
mutant("LM2", 'busy = f"port {self.port} busy, or " if self.port else ""', 'busy = ""')
mutant("LM3", "        if self.process is not None and self.base_url is not None:\n            return self.base_url\n",
       "")
mutant("LM4", '               "--address-fd", str(write_end)]', '               ]')
# cli/__init__.py: lazy commands
mutant("CL1", "return sorted({*self.commands, *_COMMAND_MODULES})", "return sorted(self.commands)")
mutant("CL2", "            if command.name != cmd_name:\n", "            if False:\n")
mutant("CL3", 'if not info.name.startswith("_")}', "}")
mutant("CL4", '_COMMAND_MODULES = {info.name.replace("_", "-"): info.name',
       '_COMMAND_MODULES = {info.name: info.name')
# detect/compiled.py: a credential's prefix compiled with its unit
mutant("KP1", 'if rules.name != "credential" or not forms:', 'if rules.name == "credential" or not forms:')
mutant("KP2", "return public_key_prefix(forms[0])", "return public_key_prefix(forms[-1])")
# detect/cues.py: numpy for long texts only
mutant("NP1", "_SHORT = 4096", "_SHORT = 4095")
mutant("NP2", "short = [text for text in dict.fromkeys(texts) if len(text) < _SHORT]",
       "short = [text for text in dict.fromkeys(texts) if len(text) <= _SHORT]")
# detect/value_checks.py: checks-v13
mutant("VC1", r'_EUROPEAN = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d{1,2})(?![\d]|[.,]\d)")',
       r'_EUROPEAN = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d{1,2})(?![\d])")')
mutant("VC2", 'return _EUROPEAN_SCALES.sub(lambda m: "million" if m[1] else "billion", text)',
       'return _EUROPEAN_SCALES.sub(lambda m: "million", text)')
mutant("VC3", 'text = _EUROPEAN.sub(lambda m: m[1].replace(".", "").replace(",", "."), norm)',
       'text = _EUROPEAN.sub(lambda m: m[1].replace(",", "."), norm)')
mutant("VC4", "    if _EUROPEAN.search(norm):\n        found += _digit_numbers(european(norm))\n", "")
mutant("VC5", 'head = re.sub(r"\\s*\\([^)\\d]*\\)", "", value).strip()',
       'head = re.sub(r"\\s*\\([^)]*\\)", "", value).strip()')
mutant("VC6", "more = [n for v in own_values(unit) for n in [*synonyms(v), *treated(v), *qualified(v)]]",
       "more = [n for v in own_values(unit) for n in [*synonyms(v), *treated(v)]]")
mutant("VC7", 'CHECKS_VERSION = "checks-v19"', 'CHECKS_VERSION = "checks-v18"')
# detect/descriptions.py, learned_grader.py: the grader v3's category features (the table's loading, the reading)
mutant("DC1", "        if line and not line.startswith(\"#\"):\n", "        if line:\n")
mutant("DC2", 're.compile(re.escape(w) if _HAN.search(w) else rf"\\b{re.escape(w)}")', "re.compile(re.escape(w))")
mutant("DC3", 'return _categories_of((unit.value, *unit.aliases)) if unit.kind == "health" else ()',
       'return _categories_of((unit.value,)) if unit.kind == "health" else ()')
mutant("DC4", "for m in (*synonyms(v), *translations(v)))]]", "for m in synonyms(v))]]")
mutant("DC5", "return sum(any(c.search(norm) for c in _cues()[name]) for name in found)",
       "return int(any(c.search(norm) for name in found for c in _cues()[name]))")
mutant("DC6", "rows.append((name, _words(normalize_text(members)), _words(normalize_text(cues))))",
       "rows.append((name, _words(members), _words(cues)))")
mutant("DC7", 'return _categories_of((unit.value, *unit.aliases)) if unit.kind == "health" else ()',
       "return _categories_of((unit.value, *unit.aliases))")
mutant("LW1", "return [float(bool(descriptions.categories(unit))), float(descriptions.category_cues(unit, text))]",
       "return [float(descriptions.category_cues(unit, text)), float(bool(descriptions.categories(unit)))]")
mutant("LW2", "*(float(unit.kind == k) for k in KINDS), *describes(unit, text),",
       "*(float(unit.kind == k) for k in KINDS), 0.0, 0.0,")

# --- session 24's round: the code changed in session 23 (GROUPS_S24) ---------------------------------------------
# logs/batch_api.py: which file is which, pairing by `custom_id`, the batch tier, the unlogged and the whole lines
mutant("YB1", 'found = record.get("custom_id", record.get("key"))', 'found = record.get("custom_id")')
mutant("YB2", '(isinstance(record.get("body"), dict) and "url" in record) or isinstance(record.get("params"), dict)',
       '(isinstance(record.get("body"), dict) and "url" in record)')
mutant("YB3", "holders = tuple(p for p, held in inputs.items() if ids <= held)",
       "holders = tuple(p for p, held in inputs.items() if ids & held)")
mutant("YB4", "owners[path] = tuple(p for p in holders if p.parent == path.parent) or holders",
       "owners[path] = (tuple(p for p in holders if p.parent == path.parent) or holders)[:1]")
mutant("YB5", '_SUFFIXES = (".jsonl", ".ndjson", "")', '_SUFFIXES = (".jsonl", "")')
mutant("YB6", "    whole = LINE_RANGE.set(None)\n", "    whole = LINE_RANGE.set(LINE_RANGE.get())\n")
mutant("YB7", 'if result.get("type") == "succeeded" else {', 'if result.get("type") != "errored" else {')
mutant("YB8", 'found = response if "key" in answer else json_object(response.get("body"))',
       'found = json_object(response.get("body"))')
mutant("YB9", 'if isinstance(response.get("status_code"), int):\n            record["status_code"]',
       'if False:\n            record["status_code"]')
mutant("YB10", "if usage is not None and not usage.get(\"priced\"):\n        usage[\"service_tier\"] = BATCH_TIER",
       "if usage is not None and not usage.get(\"priced\"):\n        pass")
mutant("YB11", "            if not answered and path.with_name(path.name + \".out\").is_file():\n                retur"
       "n\n",
       "")
mutant("YB12", 'response = {**response, "modelVersion": version.removesuffix("@default")}', "pass")
mutant("YB13", 'answer = {"response": {"body": response}, "error": line.get("status") or None}',
       'answer = {"response": {"body": response}, "error": None}')
mutant("YB14", "        if len(owners[original]) == 1:\n            return  # read with its input file's requests\n",
       "")
mutant("YB15", "replies: list[dict | None] = [*answers.get(_line_id(request) or \"\", [])] or [None]",
       "replies: list[dict | None] = [*answers.get(_line_id(request) or \"\", [])][:1] or [None]")
mutant("YB16", 'return "input" if _is_input(record) else "output" if _is_output(record) else None',
       'return "input" if _is_input(record) else "output"')
mutant("YB17", 'unlogged: dict = {"custom_id": _line_id(answer), "body": {"model": model, "messages": []}}',
       'unlogged: dict = {"custom_id": _line_id(answer), "body": {"model": None, "messages": []}}')
# logs/cline.py: the sidecars, the usage of each request in order, the model
mutant("YC1", 'if not isinstance(message, dict) or message.get("say") != "api_req_started":',
       'if not isinstance(message, dict):')
mutant("YC2", 'if isinstance(info, dict) and ("tokensIn" in info or "tokensOut" in info):',
       'if isinstance(info, dict) and "tokensIn" in info:')
mutant("YC3", 'found.append(({"input": tokens_in, "output": info.get("tokensOut"),',
       'found.append(({"input": info.get("tokensOut"), "output": tokens_in,')
mutant("YC4", '"cacheRead": info.get("cacheReads"), "cacheWrite": info.get("cacheWrites"),',
       '"cacheRead": info.get("cacheWrites"), "cacheWrite": info.get("cacheReads"),')
mutant("YC5", '"cost": {"total": cost} if isinstance(cost, int | float) else None}, model, provider))',
       '"cost": None}, model, provider))')
mutant("YC6", "next((m for m in reversed(models) if m[0] <= when), models[0])",
       "next((m for m in models if m[0] <= when), models[0])")
mutant("YC7", 'if isinstance(message, dict) and message.get("role") == "assistant":', 'if isinstance(message, dict):')
mutant("YC8", 'for payload in conversation_calls(messages, session=path.parent.name,',
       'for payload in conversation_calls(messages, session=path.name,')
mutant("YC9", '_SIDECARS = ("ui_messages.json", "task_metadata.json")', '_SIDECARS = ("ui_messages.json",)')
mutant("YC10", 'return path.name == CONVERSATION and head.lstrip()[:1] == b"["', 'return path.name == CONVERSATION')
# intercept/usage.py: Ollama's counts, where an answer's usage lies
mutant("YO1", "return Usage(_int(usage.get(\"prompt_eval_count\")), 0, _int(usage.get(\"eval_count\")))",
       "return Usage(_int(usage.get(\"eval_count\")), 0, _int(usage.get(\"prompt_eval_count\")))")
mutant("YO2", 'if found is None and ("prompt_eval_count" in response or "eval_count" in response):',
       'if found is None and "eval_count" in response:')
mutant("YO3", "    return found if isinstance(found, dict) else None\n", "    return found\n")
# logs/langfuse.py: the other input_* / output_* buckets
mutant("YF1", '"output_tokens": int((completion or 0) + _bucket(usage, "output")),',
       '"output_tokens": int(completion or 0),')
mutant("YF2", 'and key not in _CACHE_READ + _CACHE_WRITE and "_modality_" not in key)',
       'and key not in _CACHE_READ + _CACHE_WRITE)')
mutant("YF3", 'and key not in _CACHE_READ + _CACHE_WRITE and "_modality_" not in key)', 'and "_modality_" not in key)')
mutant("YF4", 'return {"input_tokens": int((prompt or 0) + _bucket(usage, "input")),',
       'return {"input_tokens": int(prompt or 0),')
# logs/openai_log.py: an SSE answer cut short
mutant("YH1", 'ended |= line[5:].strip() == "[DONE]"', 'ended |= False')
mutant("YH2", 'if events and not (ended or any(map(_ends, events))):', 'if not (ended or any(map(_ends, events))):')
mutant("YH3", "_END_EVENTS = frozenset({\"message_stop\", \"response.completed\", \"response.incomplete\", \"response."
       "failed\"})",
       "_END_EVENTS = frozenset({\"response.completed\", \"response.incomplete\", \"response.failed\"})")
mutant("YH4", 'if event.get("type") in _END_EVENTS or (isinstance(delta, dict) and delta.get("stop_reason")):',
       'if event.get("type") in _END_EVENTS:')
mutant("YH5", 'isinstance(c, dict) and (c.get("finish_reason") or c.get("finishReason")) for c in choices)',
       'isinstance(c, dict) and c.get("finish_reason") for c in choices)')
mutant("YH6", '        out.meta["usage"] |= {"cost_usd": None, "priced": True}\n', '        pass\n')
mutant("YH7", 'if isinstance(record.get(k), dict | str)), {})', 'if isinstance(record.get(k), dict)), {})')
# report/summary.py, report/terminal.py, metrics.py: the first leak at the best grade, failed episodes, by_group
mutant("YR1", 'if key not in first or row["grade"] > first[key]["best"]:', 'if key not in first:')
mutant("YR2", 'if key not in first or row["grade"] > first[key]["best"]:',
       'if key not in first or row["grade"] >= first[key]["best"]:')
mutant("YT1", 'headline += [("failed", "failed", "int"), ("completion"', 'headline += [("completion"')
mutant("YM1", 'pl.len(), leaked=(pl.col("grade") >= MOSTLY).sum(), exposure=weighted).iter_rows()}',
       'pl.len(), leaked=(pl.col("grade") > MOSTLY).sum(), exposure=weighted).iter_rows()}')
mutant("YM2", 'weighted = (pl.col("grade") * pl.col("weight")).sum() / pl.col("weight").sum()\n    groups',
       'weighted = pl.col("grade").mean()\n    groups')
# cli/intercept.py: `intercept audit --out`'s sessions table
mutant("YI1", "        write_table(_sessions(result, records), sessions_path(out))\n", "")
mutant("YI2", '"cloud_usd": None if unpriced else sum(r.billed_usd or 0.0 for r in sent),',
       '"cloud_usd": sum(r.billed_usd or 0.0 for r in sent),')
mutant("YI3", 'sent = [r for r in mine if r.forwarded]', 'sent = mine')
mutant("YI4", '"scored_against": NOTHING if group not in scored', '"scored_against": NOTHING if not scored')
mutant("YI5", '"cloud_calls_without_usage": sum(r.input_tokens is None and r.output_tokens is None for r in sent),',
       '"cloud_calls_without_usage": 0,')
mutant("YI6", 'else f"task {\', \'.join(tasks)}" if len(tasks) <= 3 else f"{len(tasks)} tasks",',
       'else f"task {\', \'.join(tasks)}" if len(tasks) < 3 else f"{len(tasks)} tasks",')
# acebench.py: weights after the item, wrapped items, [Gating]
mutant("YA1", r'_TRAILING_WEIGHT = re.compile(r"\s+[—–-]+\s*weight\s*[:=]?\s*(\d+(?:\.\d+)?\s*%?)\s*$", re.I)',
       r'_TRAILING_WEIGHT = re.compile(r"\s+[—–-]+\s*weight\s*[:=]?\s*(\d+(?:\.\d+)?)\s*$", re.I)')
mutant("YA2", "return key, weight if weight is not None or not trailing else _weight(trailing.group(1)), description, "
       "gate",
       "return key, weight, description, gate")
mutant("YA3", "        line = line[:trailing.start()].rstrip()\n", "        pass\n")
mutant("YA4", r'(?:\bHARD[\s_-]*GATES?\b|\[GATING\])', r'(?:\bHARD[\s_-]*GATES?\b)')
mutant("YA5", r'_GATE = re.compile(r"(?:\s+[—–-]+\s*)?\*{0,2}', r'_GATE = re.compile(r"\*{0,2}')
mutant("YA6", '            lines[-1][1][-1] += " " + line.strip()\n', '            pass\n')
mutant("YA7", "elif in_item and line.strip():", "elif in_item:")
mutant("YA8", "            lines.append((_weight(found.group(1) or found.group(2)) if found else None, []))\n"
       "            in_item = False\n",
       "            lines.append((_weight(found.group(1) or found.group(2)) if found else None, []))\n")
mutant("YA9", "        else:\n            in_item = False\n", "")
# annotate: Stripe keys, split names, id columns
mutant("YK1", r'(r"(?<![\w-])[sr]k_(?:live|test)_[A-Za-z0-9]{24,}(?![\w-])", 0.95)',
       r'(r"(?<![\w-])sk_(?:live|test)_[A-Za-z0-9]{24,}(?![\w-])", 0.95)')
mutant("YK2", r'(r"(?<![\w-])[sr]k_(?:live|test)_[A-Za-z0-9]{24,}(?![\w-])", 0.95)',
       r'(r"(?<![\w-])[sr]k_(?:live|test)_[A-Za-z0-9]{34,}(?![\w-])", 0.95)')
mutant("YK3", '    ), validate=_random_looking),\n    PatternRecognizer("aws-access-key"',
       '    )),\n    PatternRecognizer("aws-access-key"')
mutant("YW1", 'return name or " ".join(p.strip() for p in parts if p) or None', 'return name or parts[0] or None')
mutant("YW2", "SPLIT_NAME_KEYS = ((\"first_name\", \"firstname\", \"given_name\"), (\"last_name\", \"lastname\", \"sur"
       "name\", \"family_name\"))",
       "SPLIT_NAME_KEYS = ((\"first_name\", \"firstname\", \"given_name\"), (\"last_name\", \"lastname\", \"family_nam"
       "e\"))")
mutant("YW3", "        name = record_name(cells.get)\n",
       "        name = next((cells[k] for k in NAME_KEYS if cells.get(k)), None)\n")
mutant("YW4", 'name = next((v for k in NAME_KEYS if (v := value(k))), None)', 'name = None')
mutant("YL1", '"mrn": "health", "病历号": "health", "insurance_id": "financial", "member_number": "financial",',
       '"病历号": "health", "insurance_id": "financial", "member_number": "financial",')
mutant("YL2", '"mrn": "health", "病历号": "health", "insurance_id": "financial", "member_number": "financial",',
       '"mrn": "health", "病历号": "health", "member_number": "financial",')
# detect/forms: `0x` UTF-16LE, `+` in links
mutant("YX1", "                decoded = hex_text(m.group(1), prefixed=True)\n",
       "                decoded = hex_text(m.group(1))\n")
mutant("YX2", "    except UnicodeDecodeError:\n        return utf16_text(raw, prefixed)\n",
       "    except UnicodeDecodeError:\n        return None\n")
mutant("YX3", "        return decoded\n    return utf16_text(raw, prefixed)\n",
       "        return decoded\n    return None\n")
mutant("YU1", r'_WORD = r"(?:[^\W\d_]|%[0-9A-Fa-f]{2})+"', r'_WORD = r"(?:[^\W\d_])+"')
mutant("YU2", r'_SEGMENT = re.compile(rf"[/=]({_WORD}(?:\+{_WORD})+)(?![\w%+])")',
       r'_SEGMENT = re.compile(rf"[/=]({_WORD}(?:\+{_WORD})+)")')
mutant("YU3", 'if "%" in m.group(1) or "=" != text[m.start()]:', 'if "%" in m.group(1):')
mutant("YU4", 'if all(c.isalpha() or c == " " for c in words):', 'if True:')
mutant("YU5", 'words = unquote_plus(m.group(1), errors="strict")', 'words = unquote_plus(m.group(1))')
mutant("YU6", r'_SEGMENT = re.compile(rf"[/=]({_WORD}(?:\+{_WORD})+)(?![\w%+])")',
       r'_SEGMENT = re.compile(rf"[/]({_WORD}(?:\+{_WORD})+)(?![\w%+])")')
# detect/views.py: UTF-16 in base64, `-enc`
mutant("YV1", 'if len(raw) % 2 or len(raw) < 8 or not (bom or marked or raw[1::2].count(0) * 2 >= len(raw) // 2):',
       'if len(raw) % 2 or len(raw) < 8 or not (bom or marked):')
mutant("YV2", 'if len(raw) % 2 or len(raw) < 8 or not (bom or marked or raw[1::2].count(0) * 2 >= len(raw) // 2):',
       'if len(raw) % 2 or len(raw) < 8 or not (bom or raw[1::2].count(0) * 2 >= len(raw) // 2):')
mutant("YV3", 'if len(raw) % 2 or len(raw) < 8 or not (bom or marked or raw[1::2].count(0) * 2 >= len(raw) // 2):',
       'if len(raw) % 2 or len(raw) < 8 or not (bom or marked or raw[0::2].count(0) * 2 >= len(raw) // 2):')
mutant("YV4", 'decoded = raw.decode("utf-16" if bom else "utf-16-le")', 'decoded = raw.decode("utf-16-le")')
mutant("YV5", '"=", "eyj", "-enc")', '"=", "eyj")')
mutant("YV6", 'bom = raw[:2] in (b"\\xff\\xfe", b"\\xfe\\xff")', 'bom = raw[:2] == b"\\xff\\xfe"')
mutant("YV7", 'if len(raw) % 2 or len(raw) < 8 or not (bom or marked or raw[1::2].count(0) * 2 >= len(raw) // 2):',
       'if len(raw) % 2 or len(raw) < 16 or not (bom or marked or raw[1::2].count(0) * 2 >= len(raw) // 2):')
# intercept/redact.py: texts scanned ahead
mutant("YS1", "        if 1 < len(texts) <= SCAN_AHEAD_TEXTS:\n", "        if 1 < len(texts) < 0:\n")
mutant("YS2", "            texts.append(text)\n            return []\n", "            return []\n")
# detect/compiled.py: cached_table
mutant("YE1", "        if valid(table):\n            path.touch()", "        if True:\n            path.touch()")
mutant("YE2", "    except (OSError, ValueError):  # none yet, or one that does not read whole: built again\n        pa"
       "ss\n",
       "    except OSError:  # none yet, or one that does not read whole: built again\n        pass\n")
mutant("YE3", 'key = hashlib.sha256(f"{_code_version()} {name}".encode()).hexdigest()[:32]',
       'key = hashlib.sha256(f"{name}".encode()).hexdigest()[:32]')
mutant("YE4", "            path.touch()  # kept among the most recently used\n", "")
mutant("YE5", "    except (OSError, ValueError):  # a cache that cannot be written costs the derivation, nothing else"
       "\n",
       "    except ValueError:  # a cache that cannot be written costs the derivation, nothing else\n")
mutant("YV8", "return isinstance(table, dict) and table.keys() == _T2S_FIELDS.keys() and all(",
       "return isinstance(table, dict) and all(")
# detect/value_checks.py, e5_judge.py: checks-v14 (Traditional read as Simplified, evidence quoted as written)
mutant("YQ1", "    return to_simplified(text)\n", "    return text\n")
mutant("YQ2", "if 0 <= verdict.start < verdict.end <= len(text) and verdict.evidence:",
       "if False:")
# detect/learned_grader.py: grader v4's numbers_stated and finds_nothing
mutant("YG1", "return float(bool(own) and own <= {round(n, 6) for n in value_checks.numbers(text)})",
       "return float(own <= {round(n, 6) for n in value_checks.numbers(text)})")
mutant("YG2", "return float(bool(own) and own <= {round(n, 6) for n in value_checks.numbers(text)})",
       "return float(bool(own) and bool(own & {round(n, 6) for n in value_checks.numbers(text)}))")
mutant("YG3", "return unit.kind == \"health\" and bool(_NOTHING_FOUND.search(text) or (",
       "return bool(_NOTHING_FOUND.search(text) or (")
mutant("YG4", "if p >= self.threshold and not held:", "if p >= self.threshold:")
mutant("YG5", '|tested negative|within normal (?:limits|range)|', '|tested negative|')
mutant("YG6", '|排除(?!标准)|否认|未发现|', '|排除(?!标准)|未发现|')
mutant("YG7", "own = {round(n, 6) for n in value_checks.numbers(unit.value)}",
       "own = {round(n) for n in value_checks.numbers(unit.value)}")
# intercept/app.py: OpenRouter's cost in the proxy, its usage accounting asked
mutant("YN1", "record.cost_usd = billed if billed is not None else self.pricing.price(",
       "record.cost_usd = self.pricing.price(")
mutant("YN2", 'isinstance(accounting, dict) and accounting.get("include") is True)', "False)")
# run/scheduler.py, backends.py, localmodel.py, cli/annotate.py: signals
mutant("YD1", "    previous = signal.signal(signal.SIGINT, signal.default_int_handler)\n",
       "    previous = signal.getsignal(signal.SIGINT)\n")
mutant("YD2", "    with _ctrl_c_stops_the_run():\n", "    with contextlib.nullcontext():\n")
mutant("YD3", "        else:\n            signal.signal(signal.SIGINT, signal.SIG_IGN)\n",
       "        else:\n            signal.signal(signal.SIGINT, previous)\n")
mutant("YD4", "        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)\n",
       "        pass\n")
mutant("YZ1", "        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once", "        pass  # once")
mutant("YJ1", "        except BaseException:  # Ctrl-C while the model loads, say: the child ends now, not once loaded"
       " and orphaned\n            self.stop()\n",
       "        except BaseException:  # Ctrl-C while the model loads, say: the child ends now, not once loaded and or"
       "phaned\n")
mutant("YY1", "        if not stopping:  # once", "        if True:  # once")
mutant("YY2", "    finally:\n        stopping = True\n        srv.stop()", "    finally:\n        srv.stop()")


# --- session 25's round: the code changed in session 24 (GROUPS_S25) ---------------------------------------------
# logs/batch_api.py: pairing across folders, names without a suffix, unpaired files named
mutant('UB1', '        owners[path] = tuple(p for p in holders if p.parent == path.parent) or holders\n',
       '        owners[path] = holders\n')
mutant('UB2', 'for folder in sorted({str(path.parent), *(FOLDERS.get() or ())}):', 'for folder in [str(path.parent)]:')
mutant('UB3', '_SUFFIXES = (".jsonl", ".ndjson", "")', '_SUFFIXES = (".jsonl", ".ndjson")')
mutant('UB4', 'if suffix in _SUFFIXES and not entry.name.startswith(".") and entry.is_file():',
       'if suffix in _SUFFIXES and entry.is_file():')
mutant('UB5', '        if len(owners[original]) == 1:\n', '        if len(owners[original]) >= 1:\n')
mutant('UB6', '        on_error(InputError(f"batch output read without its requests: {why}; its calls are counted, no t'
       'ext read",\n                            file=str(path)))\n',
       '')
mutant('UB7', '    if count and not outputs:\n', '    if not outputs:\n')
mutant('UB8', '    if count and not outputs:\n', '    if count and outputs:\n')
mutant('UB9', 'outputs = sorted(p for p, held in owners.items() if held == (original,))',
       'outputs = sorted(p for p, held in owners.items() if original in held)')
mutant('UA1', '        reading = replace(reading, folders=frozenset(map(os.path.dirname, found)))\n', '')
mutant('UA2', 'folders = batch_api.FOLDERS.set(reading.folders or None)', 'folders = batch_api.FOLDERS.set(None)')
# logs/cline.py: tokensIn per provider, the model serving each request
mutant('UC1', '            if provider in OPENAI_STYLE and isinstance(tokens_in, int):\n',
       '            if False and provider in OPENAI_STYLE and isinstance(tokens_in, int):\n')
mutant('UC2', '                tokens_in = max(0, tokens_in - cache)\n', '                tokens_in = tokens_in\n')
mutant('UC3', 'cost = cost if provider in _STATE_COST or not cache else None',
       'cost = cost if provider in _STATE_COST else None')
mutant('UC4', 'cost = cost if provider in _STATE_COST or not cache else None', 'cost = cost')
mutant('UC5', 'cache = sum(n for n in (info.get("cacheReads"), info.get("cacheWrites")) if isinstance(n, int))',
       'cache = sum(n for n in (info.get("cacheReads"),) if isinstance(n, int))')
mutant('UC6', 'if isinstance(said, dict) and isinstance(said.get("modelId"), str):', 'if False:')
mutant('UC7', 'model, provider = said["modelId"], said.get("providerId") or provider',
       'model, provider = said["modelId"], provider')
mutant('UC8', 'next((m for m in reversed(models) if m[0] <= when), models[0])',
       'next((m for m in reversed(models) if m[0] < when), models[0])')
mutant('UC9', 'when = ts if isinstance(ts, int | float) else float("inf")', 'when = float("inf")')
mutant('UC10', 'message["usage"], message["model"] = usage, model or last_model',
       'message["usage"], message["model"] = usage, last_model')
mutant('UC11', 'payload.meta["provider"] = providers.get(payload.model, last_provider)',
       'payload.meta["provider"] = last_provider')
mutant('UC12', '"wandb", "nousresearch", "ollama"})', '"wandb", "nousresearch"})')
mutant('UC13', 'ts, model, provider = entry.get("ts"), entry.get("model_id"), entry.get("model_provider_id")',
       'ts, model, provider = entry.get("ts"), entry.get("model_id"), None')
# logs/otel_genai.py: the Vercel AI SDK's cache
mutant('UV1', '"llm.token_count.prompt_details.cache_read", "ai.usage.inputTokenDetails.cacheReadTokens"),',
       '"llm.token_count.prompt_details.cache_read"),')
mutant('UV2', '                                 "ai.usage.inputTokenDetails.cacheWriteTokens")}',
       '                                 )}')
mutant('UV3', '_CACHE_OUTSIDE = ("anthropic", "amazon-bedrock")', '_CACHE_OUTSIDE = ("amazon-bedrock",)')
mutant('UV4', 'if not isinstance(read, int) or "ai.usage.inputTokenDetails.cacheReadTokens" in attrs or any(cache.value'
       's()):',
       'if not isinstance(read, int) or any(cache.values()):')
mutant('UV5', 'usage["prompt_tokens"] = usage.get("prompt_tokens", 0) + read + cache["cache_write_tokens"]',
       'usage["prompt_tokens"] = usage.get("prompt_tokens", 0) + read')
mutant('UV6', '        cache["cache_write_tokens"] = written\n', '        cache["cache_write_tokens"] = 0\n')
mutant('UV7', '    if usage:\n        _ai_sdk_5_cache(attrs, usage, cache)\n', '')
# logs/codex_cli.py, classify.py, langfuse.py, intercept/pricing.py: local providers, pages, slash names
mutant('UX1', '_BUILT_IN = {"oss": "ollama"}', '_BUILT_IN = {"oss": "oss"}')
mutant('UI1', '"hf", "llama-cpp-python", "transformer_lens"})', '"llama-cpp-python", "transformer_lens"})')
mutant('UF1', 'if isinstance(page, list) and "traceId" not in record:  # a page of the public API: its `data`',
       'if False:  # a page of the public API: its `data`')
mutant('UF2', 'provider = provider_of(model)[0] or (metadata.get("ls_provider") if isinstance(metadata, dict) else None'
       ')',
       'provider = provider_of(model)[0]')
mutant('UF3', 'columns = csv_header(head) or {k.removeprefix("data.").removeprefix("item.") for k in outline(head)}',
       'columns = csv_header(head) or {k.removeprefix("item.") for k in outline(head)}')
mutant('UP1', 'names = [f"{provider}/{n}" for n in names if not n.startswith(f"{provider}/")] + names',
       'names = [f"{provider}/{n}" for n in names if "/" not in n] + names')
# cli/intercept.py: `intercept serve` gives the caller's signal handlers back
mutant('US1', '            signal.signal(signum, signal.SIG_DFL if handler is None else handler)\n',
       '            pass\n')
mutant('US2', 'callers = {signum: signal.signal(signum, server.handle_exit) for signum in (signal.SIGINT, signal.SIGTER'
       'M)}',
       'callers = {signum: signal.signal(signum, server.handle_exit) for signum in (signal.SIGINT,)}')
# intercept/form_data.py: multipart bodies read as objects and written back
mutant('UD1', '_IDENTITY = frozenset({b"", b"7bit", b"8bit", b"binary"})',
       '_IDENTITY = frozenset({b"", b"7bit", b"8bit", b"binary", b"base64"})')
mutant('UD2', '_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"'
       '))',
       '_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"),)')
mutant('UD3', '        while any(boundary in v for v in values):\n', '        while False:\n')
mutant('UD4', 'if part.encoding == "utf-8" and len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines '
       'if line):',
       'if False:')
mutant('UD5', 'if part.encoding == "utf-8" and len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines '
       'if line):',
       'if part.encoding == "utf-8" and len(lines) > 2 and all(line.lstrip().startswith("{") for line in lines '
       'if line):')
mutant('UD6', '    if "\\x00" in text:\n', '    if False:\n')
mutant('UD7', '    if sniff(value) is None:\n', '    if False:\n')
mutant('UD8', '    if not collected.ended:\n', '    if False:\n')
mutant('UD9', '        if filename is not None or ctype is not None:  # audited',
       '        if filename is not None:  # audited')
mutant('UD10', '[*held, value] if sum(p.name == part.name for p in parts[:k]) > 1 else [held, value]',
       '[*held, value] if sum(p.name == part.name for p in parts[:k]) > 0 else [held, value]')
mutant('UD11', 'text = (lines + ("\\n" if part.final_newline else "")).encode()', 'text = lines.encode()')
mutant('UD12', 'return \'"\' + text.replace(\'"\', "%22").replace("\\r", "%0D").replace("\\n", "%0A") + \'"\'',
       'return \'"\' + text + \'"\'')
mutant('UD13', '        part.form_field = kind == b"form-data"\n', '        part.form_field = True\n')
mutant('UD14', 'items += [(own[min(k, len(own) - 1)], sent_name, item)', 'items += [(own[0], sent_name, item)')
# intercept/tokens.py, fields.py: token ids read as their text
mutant('UT1', '    if len(value) < 2 or not all(type(v) is int for v in value):\n',
       '    if len(value) < 1 or not all(type(v) is int for v in value):\n')
mutant('UT2', '    if len(value) < 2 or not all(type(v) is int for v in value):\n',
       '    if len(value) < 2 or not all(isinstance(v, int) for v in value):\n')
mutant('UT3', '    if not all(0 <= v < enc.n_vocab for v in value):\n',
       '    if not all(0 <= v <= enc.n_vocab for v in value):\n')
mutant('UT4', '    pieces.append(decoder.decode(b"", final=True))\n', '')
mutant('UT5', 'return encoding().encode(text, disallowed_special=())', 'return encoding().encode(text)')
mutant('UJ1', '_TOKEN_ARRAYS = frozenset({("input",), ("input", "*"), ("prompt",), ("prompt", "*")})',
       '_TOKEN_ARRAYS = frozenset({("input",), ("prompt",)})')
mutant('UJ2', '        while continues(first):\n            first -= 1\n', '')
mutant('UJ3', '        while continues(last):\n            last += 1\n', '')
mutant('UJ4', 'return 0 < k < len(ids) and 0x80 <= whole(ids[k])[0] < 0xC0',
       'return 0 < k < len(ids) and 0x80 <= whole(ids[k])[0] < 0xBF')
mutant('UJ5', 'first, last = bisect.bisect_right(starts, start) - 1, bisect.bisect_left(starts, end)',
       'first, last = bisect.bisect_right(starts, start) - 1, bisect.bisect_right(starts, end)')
mutant('UJ6', '    return out + ids[at:]\n', '    return out\n')
# intercept/app.py: a form parsed, refused where unread, forwarded as a form
mutant('UN1', '        if form.unreadable and self.config.enforce != "observe":\n', '        if False:\n')
mutant('UN2', 'streams = ex.form.streams if ex.form is not None else bool(body.get("stream"))',
       'streams = bool(body.get("stream"))')
mutant('UN3', 'if content_type.partition(";")[0].strip().lower() in MEDIA_TYPES or file_body:',
       'if content_type.partition(";")[0].strip() in MEDIA_TYPES or file_body:')
# detect/forms: reg_hex, code_point_lists, coordinates, separators, subnets, cjk_spacing
mutant('UR1', '_UTF16_TYPES = frozenset({"1", "2", "7"})', '_UTF16_TYPES = frozenset({"1", "2"})')
mutant('UR2', 'text = raw.decode(codec).rstrip("\\x00").replace("\\x00", "\\n")',
       'text = raw.decode(codec).rstrip("\\x00")')
mutant('UR3', '_NEXT = r",(?:\\\\\\r?\\n[ \\t]*)?"', '_NEXT = r","')
mutant('UR4', 'codecs = ("utf-16-le",) if kind is not None and kind.lstrip("0") in _UTF16_TYPES else ("utf-8", "utf-16-'
       'le")',
       'codecs = ("utf-16-le",) if kind is not None and kind in _UTF16_TYPES else ("utf-8", "utf-16-le")')
mutant('UR5', 'if text.strip() and all(c.isprintable() or c in "\\t\\r\\n" for c in text):', 'if text.strip():')
mutant('UL1', '    if max(numbers) < 0x80 or max(numbers) > _MAX:\n', '    if max(numbers) > _MAX:\n')
mutant('UL2', '    if max(numbers) < 0x100:\n', '    if max(numbers) < 0x80:\n')
mutant('UL3', '[ \\t]*|^)"\n                   rf"((?<![\\w.-])[0-9]{{1,7}}(?:{_COMMA}[0-9]{{1,7}})+)'
       '(?:[ \\t]*(?=[\\])])|(?=\\r?$))", re.MULTILINE)',
       '[ \\t]*|^|(?<=,))"\n                   rf"((?<![\\w.-])[0-9]{{1,7}}(?:{_COMMA}[0-9]{{1,7}})+)'
       '(?:[ \\t]*(?=[\\])])|(?=\\r?$)|(?=,))", re.MULTILINE)')
mutant('UL4', 'return text if all(c.isprintable() or c in "\\t\\n\\r" for c in text) else None', 'return text')
mutant('UO1', '    if Decimal(minutes) >= 60 or (seconds is not None and Decimal(seconds) >= 60):\n',
       '    if Decimal(minutes) > 60 or (seconds is not None and Decimal(seconds) > 60):\n')
mutant('UO2', '(-value if hemisphere in "sw" else value)', '(value)')
mutant('UO3', '("lat" if hemisphere in "ns" else "lon")', '("lat" if hemisphere in "n" else "lon")')
mutant('UO4', '    if not second or second[2] == first[2]:\n', '    if not second:\n')
mutant('UO5', 'if abs(lat - want_lat) <= value_rounding + lat_rounding \\\n',
       'if abs(lat - want_lat) <= value_rounding + lat_rounding + Decimal("0.001") \\\n')
mutant('UO6', 'rounding = Decimal(5) / 10 ** (len(last.partition(".")[2]) + 1) / scale',
       'rounding = Decimal(5) / 10 ** (len(last.partition(".")[2])) / scale')
mutant('UO7', '            if (start and text[start - 1].isdigit()) or not (pair := read_pair(text, start)):\n',
       '            if not (pair := read_pair(text, start)):\n')
mutant('UO8', '    if abs(lat) > 90 or abs(lon) > 180:\n', '    if abs(lat) > 90:\n')
mutant('UO9', '_DECIMAL_PAIR = re.compile(r"(-?\\d{1,2}\\.\\d{3,})\\s*[,;/ ]\\s*(-?\\d{1,3}\\.\\d{3,})")',
       '_DECIMAL_PAIR = re.compile(r"(-?\\d{1,2}\\.\\d{1,})\\s*[,;/ ]\\s*(-?\\d{1,3}\\.\\d{1,})")')
mutant('UE1', '_GROUPED_FROM = 10', '_GROUPED_FROM = 20')
mutant('UE2', ' < 2 or (joined.isdigit() and not long_number) \\\n', ' < 2 \\\n')
mutant('UE3', '            or any(len(g) > 4 and not any(c.isdigit() for c in g) for g in groups):\n',
       '            or False:\n')
mutant('UE4', 'or (end < len(text) and text[end].isascii() and text[end].isalnum()))', 'or False)')
mutant('UE5', 'return not ((start and text[start - 1].isascii() and text[start - 1].isalnum())',
       'return not ((start and text[start - 1].isalnum())')
mutant('UE6', '_SEPARATOR = "·・‧ -./"', '_SEPARATOR = " -./"')
mutant('UE7', 'forms += [joined, *(sep.join(groups) for sep in " -.·")]',
       'forms += [joined, *(sep.join(groups) for sep in " -.")]')
mutant('UU1', 'NARROWEST, WIDEST = 31, 24', 'NARROWEST, WIDEST = 31, 16')
mutant('UU2', '        if network.network_address != address:  # the address', '        if True:  # the address')
mutant('UU3', '                    if self._names[i] in near:\n', '                    if True:\n')
mutant('UU4', '_NAME_WINDOW = 80', '_NAME_WINDOW = 8')
mutant('UU5', '            if len(name) >= 3 and (forms := subnet_forms(cu.unit.value)):\n',
       '            if (forms := subnet_forms(cu.unit.value)):\n')
mutant('UU6', '            if bounded(text, start, end):\n', '            if True:\n')
mutant('UH1', '_SPACED = re.compile(rf" (?<=[{_HAN}] )(\\d+) (?=[{_HAN}])")',
       '_SPACED = re.compile(rf" (?<=[{_HAN}] )(\\d+) ")')
mutant('UH2', '            yield m.end() - 1, m.end(), ""\n', '')
# annotate (walk 15): AWS EXAMPLE keys, quoted values, DOB after "is", `.tfstate`, internal zones, Chinese
# addresses and passwords, a condition said as what its holder is, an instance type no licence
mutant('UK1', 'return "example" in value.casefold() or', 'return "EXAMPLE" in value or')
mutant('UK2', '    if documented_example(value):\n        return False\n    body =', '    body =')
mutant('UK3', 'return (len(stripped) >= 6 and not documented_example(stripped) and stripped.lower() not in _PLACEHOLDER'
       'S',
       'return (len(stripped) >= 6 and stripped.lower() not in _PLACEHOLDERS')
mutant('UK4', '    ), validate=lambda value: not documented_example(value)),\n', '    )),\n')
mutant('UK5', 'return rf"(?:{keys})(?:\\s*[:：=]\\s*|[ \\t]+(?=[!-~]{{6}}))(?P<value>[^\\s\\"\'，,；;]{{6,}})"',
       'return rf"(?:{keys})(?:\\s*[:：=]\\s*)(?P<value>[^\\s\\"\'，,；;]{{6,}})"')
mutant('UK6', '|[ \\t]+(?=[!-~]{{6}}))', '|[ \\t]+)')
mutant('UG1', '_INTERNAL_SUBZONES = r"(?:internal|intranet|corp)(?:\\.[a-z0-9-]+)+\\.[a-z]{2,}"',
       '_INTERNAL_SUBZONES = r"(?:intranet|corp)(?:\\.[a-z0-9-]+)+\\.[a-z]{2,}"')
mutant('UG2', 'rf"(?:{_INTERNAL_SUBZONES}|{_INTERNAL_ZONES})(?![\\w.-]*\\w)")',
       'rf"(?:{_INTERNAL_ZONES})(?![\\w.-]*\\w)")')
mutant('UQ1', 'r"BDAY(?:;[\\w=-]+)*)\\b)(?:\\s+(?:is|was)\\b)?"', 'r"BDAY(?:;[\\w=-]+)*)\\b)"')
mutant('UY1', '        (rf"(?i:{_EN_HOLDER_IS}(?P<value>{_EN_ADJECTIVES})\\b)", 0.7),\n', '')
mutant('UY2', '"(?:type [12] )?(?:pre-?)?diabetic|epileptic|', '"(?:type [12] )?(?:pre-?)?diabetic|')
mutant('UY3', 'r"^[\'’]?s?[\\s-]*(?:data(?:\\s?sets?|base|\\b)|corpus|benchmark|classifier|',
       'r"^[\'’]?s?[\\s-]*(?:data(?:\\s?sets?|base|\\b)|corpus|benchmark|')
mutant('UZ1', 'r"|(?:北京|上海|天津|重庆)(?:市|(?=[\\u4e00-\\u9fff]{1,5}?[区县])))")',
       'r"|(?:北京|上海|天津|重庆)市)")')
mutant('UZ2', 'r"(?:(?:(?: ?[\\u4e00-\\u9fffA-Za-z0-9]{1,8}?){1,3} ?)?(?:座|栋|幢|号楼|楼|单元|室))*(?: ?\\d{6}(?!\\d))'
       '?"',
       'r"(?:(?:(?: ?[\\u4e00-\\u9fffA-Za-z0-9]{1,8}?){1,1} ?)?(?:座|栋|幢|号楼|楼|单元|室))*(?: ?\\d{6}(?!\\d))?"')
mutant('UW1', '_JSON_SUFFIXES = (".json", ".tfstate")', '_JSON_SUFFIXES = (".json",)')
mutant('UW2', '    if text[start:start + 1] in ("\'", \'"\') and start + 1 < end:\n        start += 1\n', '')
mutant('UW3', '    return start, close if close > start else end\n', '    return start, end\n')
mutant('UW4', 'fields.append(Field(*_unquoted(text, at, pair.start()), entity, key))',
       'fields.append(Field(at, pair.start(), entity, key))')
mutant('UW5', 'fields.append(Field(*_unquoted(text, at, m.end("value")), entity, key))',
       'fields.append(Field(at, m.end("value"), entity, key))')
mutant('UM1', 'if dimension in ("government_id", "financial") and r.end - r.start < shortest:',
       'if dimension in ("financial",) and r.end - r.start < shortest:')
mutant('UM2', 'if dimension in ("government_id", "financial") and r.end - r.start < shortest:',
       'if dimension in ("government_id", "financial") and r.end - r.start < shortest - 2:')
mutant('UM3', '            if dim == "location" and _HOST_NAME.fullmatch(value.strip(" \\"\'")):\n',
       '            if False:\n')
mutant('UM4', '            if dim == "credential" and documented_example(value):\n', '            if False:\n')
mutant('UM5', 'and not (m.dimension == "health" and (TOPIC_AFTER.match(text[m.end:m.end + 40]) or change_count(',
       'and not (m.dimension == "health" and (False or change_count(')
mutant('UM6', '_HOST_NAME = re.compile(r"(?:[A-Za-z0-9-]+\\.)+[A-Za-z]{2,}\\.?|\\d{1,3}(?:\\.\\d{1,3}){3}")',
       '_HOST_NAME = re.compile(r"\\d{1,3}(?:\\.\\d{1,3}){3}")')
mutant('UDH1', 'r"|\\b(?:i[\'’]m|i am|(?:he|she)(?:[\'’]s| is)|(?:they|we)(?:[\'’]re| are))(?:\\s+an?)?)\\s+"',
       'r")\\s+"')
# detect/value_checks.py: checks-v15, another side or strength
mutant('VS1', '    if len(sides) == 1 and stated and not sides & stated:\n',
       '    if len(sides) >= 1 and stated and sides != stated:\n')
mutant('VS2', '    if len(sides) == 1 and stated and not sides & stated:\n', '    if False:\n')
mutant('VS3', '    given = {s for s in given if s[1] in units}\n', '')
mutant('VS4', '    return bool(strengths and given and not strengths & given)\n', '    return False\n')
mutant('VS5', '"毫升": "ml", "unit": "iu", "units": "iu",', '"毫升": "ml", "unit": "iu",')
mutant('VS6', '    return {{"左": "left", "右": "right"}.get(side, side) for m in _SIDE.finditer(normalize_text(text))',
       '    return {side for m in _SIDE.finditer(normalize_text(text))')
mutant('VS7', '                or other_side_or_strength(unit.value, text))', '                )')
mutant('VS8', '|into|to|the|of|from|over|here|there|then|off|back)\\b)',
       '|into|to|the|of|from|over|here|there|then|off)\\b)')
mutant('VS9', '_STRENGTH = re.compile(r"(\\d+(?:\\.\\d+)?) ?(mg|', '_STRENGTH = re.compile(r"(\\d+) ?(mg|')
# detect/compiled.py, exact.py: a credential in another case is another secret
mutant('UCD1', '        if self.rules.name != "credential":\n', '        if False:\n')
mutant('UCD2', 'if letters.lower() in r.lower() and not _HEX.fullmatch(r)]', 'if letters.lower() in r.lower()]')
mutant('UCD3', '        return bool(same) and not any(letters in r for r in same)\n',
       '        return not any(letters in r for r in same)\n')
mutant('UCD4', '_HEX = re.compile(r"[a-f]*|[A-F]*")', '_HEX = re.compile(r"[a-fA-F]*")')
mutant('UCD5', 'return "".join(re.findall(r"[A-Za-z]", unicodedata.normalize("NFKC", text)))',
       'return "".join(re.findall(r"[A-Za-z]", text))')
# detect/learned_grader.py: learned-grader-v7 (linear weights, more findings of nothing)
mutant('UGR1', 'linear = x @ self.weights if self.weights is not None else 0.0', 'linear = 0.0')
mutant('UGR2', 'weights is not None and weights.shape != (len(grader.names),)) or not (', 'False) or not (')
mutant('UGR3', 'r"|never (?:had|been diagnosed|been prescribed|been on|taken)"', 'r"|never (?:had|been diagnosed)"')
mutant('UGR4', 'r"|[?？]\\W{0,4}(?:no\\b|否|无|没有)"', 'r""')
mutant('UGR5', 'r"|\\b(?:not back (?:yet|from)|not (?:in|here) yet|', 'r"|\\b(?:not (?:in|here) yet|')
mutant('UGR6', 'r"|阴性|正常范围|均正常|未见|排除(?!标准)|否认|', 'r"|阴性|正常范围|均正常|未见|排除|否认|')

# ---- session 26's round: the code changed in session 25 (`git diff 4f47c3b 4d08ba3 -- ec2audit`) ----
# detect/forms/acronyms.py: a health value with a run of its words as their initials
mutant('EA1', '_SHORTEST, _LONGEST = 3, 5', '_SHORTEST, _LONGEST = 2, 5')
mutant('EA2', '    if not norm.isascii():\n        return []\n', '')
mutant('EA3', 'forms += [form, re.sub(r"\\s*,\\s*", " ", form)]', 'forms += [form]')
mutant('EA4', '            if standalone(text, start, end):\n', '            if True:\n')
# detect/forms/address_translations.py: a Chinese address written out in English
mutant('EAT1', '_LEAST_PARTS = 3', '_LEAST_PARTS = 2')
mutant('EAT2', 'number, words = parts[-1]', 'number, words = parts[0]')
mutant('EAT3', '            if end < len(text) and text[end].isdigit():\n                continue\n', '')
mutant('EAT4', 'return 0.0 if named else MOSTLY', 'return MOSTLY')
mutant('EAT5', 'if road is None or any(name.replace(" ", "").endswith(road) for name in named):',
       'if road is None or bool(named):')
# detect/forms/variants.py: a genetic variant in another notation
mutant('EV1', 'forms += [stem, stem + m[3].lower()]', 'forms += [stem + m[3].lower()]')
mutant('EV2', 'forms += [one, f"p.{one}", f"p.({one})", f"p.{three}", f"p.({three})", three]',
       'forms += [one, f"p.{one}", f"p.({one})"]')
mutant('EV3', 'return code if code in _AMINO else _ONE_LETTER.get(code.lower())',
       'return code if code in _AMINO else None')
mutant('EV4', 'if (start and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):', 'if False:')
mutant('EV5', 'named = not genes or any(', 'named = any(')
mutant('EV6', 'if cu.rules.name == "health" and (forms := variant_forms(cu.unit.value)):',
       'if (forms := variant_forms(cu.unit.value)):')
# detect/forms/dates.py: Han numerals, ROC and Japanese era years, foreign month names, Chinese before a date
mutant('EDT1', '    forms += _han_forms(y, m, d)\n', '')
mutant('EDT2', '    forms += _foreign_forms(y, m, d)\n', '')
mutant('EDT3', 'elif language == "fr" and d == 1:', 'elif language == "fr":')
mutant('EDT4', '_ROC_EPOCH = 1911', '_ROC_EPOCH = 1912')
mutant('EDT5', 'out += ("" if tens == 1 and not hundreds else _HAN_DIGITS[tens]) + "十"',
       'out += _HAN_DIGITS[tens] + "十"')
mutant('EDT6', '    elif hundreds and units:\n        out += "零"\n', '')
mutant('EDT7', 'if dt.date(y, m, d) >= first), None)', 'if dt.date(y, m, d) > first), None)')
mutant('EDT8', 'written = [str(year), han_number(year)] + (["元"] if year == 1 else [])',
       'written = [str(year), han_number(year)]')
mutant('EDT9', 'return ch.isdigit() or ch in _HAN_DIGITS or ch in "十百零" or (ch.isalpha() and ch.isascii())',
       'return ch.isalnum()')
# detect/forms/surnames.py: a family name after a word naming it; a relative of the same family name
mutant('ESN1', 'return cu.rules.fragment == "surname" and not _shares_entity_surname(cu)',
       'return cu.rules.fragment == "surname"')
mutant('ESN2', 'words = _SURNAME_WORDS if surname and (cu.unit.task_id, surname) not in shared else []',
       'words = _SURNAME_WORDS if surname else []')
mutant('ESN3', 'if any(not _same_given(a, b) for a in given for b in given)}', 'if len(given) > 1}')
mutant('ESN4', 'return not _same_given(name[len(han_surname(name)):], entity[len(han_surname(entity)):])',
       'return True')
mutant('ESN5', 'if not HAN_NAME.fullmatch(entity) or han_surname(entity) != han_surname(name):',
       'if not HAN_NAME.fullmatch(entity):')
mutant('ESN6', 'if latin_surname(name) is None or latin_surname(entity) != latin_surname(name):',
       'if latin_surname(name) is None:')
mutant('ESN7', 'return a.startswith(b) or b.startswith(a)', 'return a == b')
# detect/forms/initials.py: a name as its initials alone
mutant('EI1', '                for pattern in _initials_only(cu.forms[0]):\n'
       '                    index.add(pattern, INITIALS_ONLY, i)\n', '')
mutant('EI2', 'letters = [piece[0] for piece in part.split("-") if piece]', 'letters = [part[0]]')
mutant('EI3', 'return patterns + [form for form in forms if "-" in form]', 'return patterns + forms')
mutant('EI4', 'return standalone(text, start, end) and not _INITIAL_AFTER.match(text, end) \\',
       'return standalone(text, start, end) \\')
mutant('EI5', 'and not _INITIAL_BEFORE.search(text, max(0, start - 3), start)', 'and True')
# detect/forms/separators.py: an identifier cut where letters and digits meet; a prefixed number
mutant('ES1', '_LONG_CUTS = 2', '_LONG_CUTS = 1')
mutant('ES2', '_PREFIXED_NUMBER = re.compile(r"([a-z]{1,2})(\\d{8,9})")',
       '_PREFIXED_NUMBER = re.compile(r"([a-z]{1,2})(\\d{9})")')
mutant('ES3', 'groupings = [[norm[k:k + 4] for k in range(0, len(norm), 4)], *_script_groupings(norm, _LONG_CUTS)]',
       'groupings = [[norm[k:k + 4] for k in range(0, len(norm), 4)]]')
mutant('ES4', '    elif norm.isalnum():\n        groupings = _script_groupings(norm)\n', '')
mutant('ES5', '        if len(number) == 9:\n', '        if len(number) >= 8:\n')
mutant('ES6', 'forms += [threes, prefix + threes, prefix + sep + threes]', 'forms += [threes]')
mutant('ES7', 'return 0 if ch.isdigit() else 1 if ch.isascii() else 2', 'return 0 if ch.isdigit() else 1')
# detect/forms/context_fragments.py: a number's start and end both shown; a key's type; the issuer's digits
mutant('ECF1', '_BOTH_SIDES = 0.4', '_BOTH_SIDES = 0.6')
mutant('ECF2', '"begins", "starts",', '"begins",')
mutant('ECF3', '_DIGITS_ON = re.compile(r"[ \\-]?\\d")', '_DIGITS_ON = re.compile(r"\\d")')
mutant('ECF4', '_KEY_TYPE = re.compile(r"(?:[A-Za-z]{1,10}[_-])+")',
       '_KEY_TYPE = re.compile(r"(?:[A-Za-z]{1,10}[_-])")')
mutant('ECF5', 'both = whole.isdigit() and all(shown.values()) and', 'both = all(shown.values()) and')
mutant('ECF6', '                if both or not issuer:\n', '                if not issuer:\n')
mutant('ECF7', 'if prefix and len(piece) <= self._key_type[i]:', 'if prefix and len(piece) < self._key_type[i]:')
mutant('ECF8', 'if not (issuer and _DIGITS_ON.match(text, end)):', 'if not issuer:')
# detect/forms/code_point_lists.py, concatenation.py: whole lines, JSON strings a line
mutant('ECP1', '|(?=\\r?$))", re.MULTILINE)', '|(?=\\r?$))")')
mutant('ECP2', '|(?=\\r?$))",', '|(?=$))",')
mutant('ECC1', 'not _LINES_APART.fullmatch(joined) and', 'True and')
mutant('ECC2', '_LINES_APART = re.compile(r"""\\\\*["\']\\r?\\n\\\\*["\']""")',
       '_LINES_APART = re.compile(r"""\\\\*["\']\\n\\\\*["\']""")')
# detect/normalize.py: a plain number with its currency after it
mutant('EN1', 'if len(found) == 1 and sum(c.isdigit() for c in whole) == len(found[0][1].replace(".", "")):',
       'if len(found) == 1:')
mutant('EN2', '_NUMBER_THEN_CURRENCY = re.compile(r"(?<![\\d.,])(\\d+(?:\\.\\d+)?)',
       '_NUMBER_THEN_CURRENCY = re.compile(r"(\\d+(?:\\.\\d+)?)')
# detect/learned_grader.py: learned-grader-v8/v9 (`withheld`: nothing found, another instance, no evidence)
mutant('EG1', 'r"\\b(?:panel|testing|screen(?:ing)?|test)\\b[^.;\\n]{0,20}\\bnegative"',
       'r"\\b(?:panel|testing|screen(?:ing)?|test)\\b[^.;\\n]{0,2}\\bnegative"')
mutant('EG2', '|\\b(?:no longer|not) (?:on|taking|prescribed) any\\b"',
       '|\\b(?:no longer) (?:on|taking|prescribed) any\\b"')
mutant('EG3', '_EMPTY.search(text) and not _FOUND.search(_EMPTY.sub(" ", text))))', '_EMPTY.search(text)))')
mutant('EG4', 'not _FOUND.search(_EMPTY.sub(" ", text))', 'not _FOUND.search(text)')
mutant('EG5', 'if not value_checks.latin(unit.value) or _HAN.search(text):', 'if not value_checks.latin(unit.value):')
mutant('EG6', 'if re.search(r"\\d", unit.value) and re.search(r"\\d", value_checks.spelled(text)):',
       'if re.search(r"\\d", value_checks.spelled(text)):')
mutant('EG7', 'return value_checks.acronym_in(unit.value, text) or bool(descriptions.category_cues(unit, text))',
       'return bool(descriptions.category_cues(unit, text))')
mutant('EG8', 'return any(_HAN.search(pair) and pair in line for pair in pairs)', 'return False')
mutant('EG9', 'return (bool(own) and not any(', 'return (not any(')
mutant('EG10', 'if value_checks.another_instance(unit, text) or others_rows(unit, text):',
       'if value_checks.another_instance(unit, text):')
mutant('EG11', '    if value_checks.another_number(unit, text):\n', '    if False:\n')
mutant('EG12', '    if value_checks.placeholder_slot(unit, text):\n', '    if False:\n')
mutant('EG13', 'if not (own_evidence(unit, text) or value_checks.names_the_entity(unit, text)):',
       'if not own_evidence(unit, text):')
mutant('EG14', 'if p >= self.threshold and not held:', 'if p >= self.threshold:')
# detect/value_checks.py: checks-v16 (per period), checks-v17 (another instance, number, placeholder)
mutant('EC1', 'r"\\b(?:per year|a year|annual(?:ly)?|yearly|per annum)\\b|年薪',
       'r"\\b(?:per year|annual(?:ly)?|yearly|per annum)\\b|年薪')
mutant('EC2', 'if _YEARLY.search(value) and _MONTHLY.search(text) and not _YEARLY.search(text):',
       'if _YEARLY.search(value) and _MONTHLY.search(text):')
mutant('EC3', '        return (1 / 12,)\n', '        return (12.0,)\n')
mutant('EC4', '            return bound(Verdict(MOSTLY, quote, reading.start, reading.end), unit, text, others)\n',
       '            return bound(Verdict(LITERAL, quote, reading.start, reading.end), unit, text, others)\n')
mutant('EC5', 'if unit.kind == "health" and sites and given and not sites & given:',
       'if sites and given and not sites & given:')
mutant('EC6', 'if any((found := _same_shape(t, text)) and t not in found for t in ids):',
       'if any(t not in _same_shape(t, text) for t in ids):')
mutant('EC7', 'len(found := _same_shape(value, text)) >= 2 and value not in found',
       'len(found := _same_shape(value, text)) >= 1 and value not in found')
mutant('EC8', 'if len(apart) == 2 and apart[1] == apart[0] + 1:', 'if len(apart) == 2:')
mutant('EC9', 'return len(apart) == 1 and other[apart[0]:].strip("0.") != ""', 'return len(apart) == 1')
mutant('EC10', 'own = {run for run in _digit_runs(unit.value) if sum(c.isdigit() for c in run) >= 3}',
       'own = {run for run in _digit_runs(unit.value) if sum(c.isdigit() for c in run) >= 4}')
mutant('EC11', 'if not own or own & given or re.sub(r"\\D", "", unit.value) in re.sub(r"[\\s,.-]", "", text) \\',
       'if not own or own & given \\')
mutant('EC12', '            or _RELATIVE.search(text):\n', '            or False:\n')
mutant('EC13', 'if any(name.lower() in norm for name in written_names(unit) if len(name) >= 2):', 'if False:')
mutant('EC14', '    if own & _digit_runs(text):\n', '    if False:\n')
mutant('EC15', 'if any(said[i:i + 2] in pairs for i in range(len(said) - 1) if _HAN.search(said[i:i + 2])):',
       'if False:')
mutant('EC16', '    return _names_entity(entity_names(unit), text)\n', '    return False\n')
# intercept/app.py: other APIs' roots, Ollama's NDJSON streams, Gemini's resumable uploads
mutant('EP1', '_NEXT_URL = frozenset({b"x-goog-upload-url"})', '_NEXT_URL: frozenset[bytes] = frozenset()')
mutant('EP2', 'if url.startswith(moved[0] + "/"):', 'if True:')
mutant('EP3', 'v = (moved[1] + url[len(moved[0]):]).encode()', 'v = (moved[1] + url).encode()')
mutant('EP4', "return f\"{scope.get('scheme', 'http')}://{host}{scope['path'][:len(scope['path']) - len(path)]}\"",
       "return f\"{scope.get('scheme', 'http')}://{host}\"")
mutant('EP5', 'if offset != str(len(held)):', 'if False:')
mutant('EP6', 'ex.fields = [(kind, name, "0" if kind == "header" and name == _UPLOAD_OFFSET else value)',
       'ex.fields = [(kind, name, value)')
mutant('EP7', 'whole = self._whole_file(ex, raw, "finalize" in command)', 'whole = self._whole_file(ex, raw, True)')
mutant('EP8', '        if root == "/v1":\n', '        if True:\n')
mutant('EP9', 'return f"{url.scheme}://{url.netloc}{root}"', 'return f"{url.scheme}://{url.netloc}"')
mutant('EP10', 'assembler.done and not finished)', 'False)')
mutant('EP11', '"application/x-ndjson": (LineSplitter, _ndjson)}', '"application/x-ndjson": (LineSplitter, _sse)}')
mutant('EP12', 'return root + tail + ("?" + urllib.parse.urlencode(query) if query else "")',
       'return "/v1" + tail + ("?" + urllib.parse.urlencode(query) if query else "")')
mutant('EP13', 'Held(whole, 0.0, record.episode', 'Held(chunk, 0.0, record.episode')
mutant('EP14', '_client_headers(upstream, self._moved(ex), location', '_client_headers(upstream, None, location')
mutant('EP15', 'elif enforcing and (urllib.parse.urlsplit(url).scheme',
       'elif False and (urllib.parse.urlsplit(url).scheme')
mutant('EP16', '"an upload" if any(kind == "header" and name in _UPLOAD_HEADERS',
       '"an upload" if any(False and name in _UPLOAD_HEADERS')
mutant('EP19', 'location = ("a redirect" if upstream.status in _REDIRECTS else',
       'location = ("a redirect" if upstream.status in () else')
mutant('EP17', 'return seams.across(found.rows, cut, reach,', 'return seams.across(found.rows, 0, 0,')
mutant('EP18', 'self.part_ends.hold(session, Held((before + data)[-self.seam_bytes:]',
       'self.part_ends.hold(session, Held(data[-self.seam_bytes:]')
# intercept/dialects.py: the roots
mutant('ED1', 'GENERIC_ROOTS = ("/v1beta",)', 'GENERIC_ROOTS: tuple[str, ...] = ()')
mutant('ED2', 'Dialect("ollama", ("/chat", "/generate", "/embed", "/embeddings"), provider="ollama", root="/api",',
       'Dialect("ollama", ("/chat", "/generate", "/embeddings"), provider="ollama", root="/api",')
mutant('ED3', 'Dialect("cohere", ("/chat", "/embed", "/rerank"), provider="cohere", root="/v2"),',
       'Dialect("cohere", ("/chat", "/embed"), provider="cohere", root="/v2"),')
mutant('ED4', '            stream="ollama"),  #', '            ),  #')
# intercept/form_data.py: URL-encoded bodies, multipart/related, a body that is one file
mutant('EF1', 'MEDIA_TYPES = ("multipart/form-data", "multipart/related", "multipart/mixed", URLENCODED)',
       'MEDIA_TYPES = ("multipart/form-data", "multipart/mixed", URLENCODED)')
mutant('EF2', 'keep_blank_values=True, encoding=codec, errors="strict")',
       'keep_blank_values=False, encoding=codec, errors="strict")')
mutant('EF3', 'body[name] = value if name not in body else [*held, value] if isinstance(held, list) else [held, value]',
       'body[name] = value')
mutant('EF4', 'if media_type.lower() == URLENCODED.encode():', 'if media_type == URLENCODED.encode():')
mutant('EF5', 'headers=[(b"content-type", content_type.encode())])', 'headers=[])')
# intercept/redact.py, sse.py: Ollama's NDJSON lines restored and assembled
mutant('ER1', 'texts = [(line, "response"), (line, "thinking")] + (', 'texts = [(line, "response")] + (')
mutant('ER2', '(message, "content"), (message, "thinking")])', '(message, "content")])')
mutant('ER3', '        if message is not None and message.get("tool_calls"):\n', '        if False:\n')
mutant('ER4', '        if line.get("done") is True:\n', '        if False:\n')
mutant('ESS1', 'return [Event(line + b"\\n", None,', 'return [Event(line, None,')
mutant('ESS2', '.strip() or None) for line in lines]', '.strip()) for line in lines]')
mutant('ESS3', '            _text_add(whole, "thinking", message.get("thinking"))\n', '')
mutant('ESS4', 'whole.setdefault("tool_calls", []).extend(message["tool_calls"])',
       'whole["tool_calls"] = message["tool_calls"]')
mutant('ESS5', 'self.done = line.get("done") is True', 'self.done = "done" in line')
# intercept/store.py: the stream flag written when an exchange completes
mutant('EST1', '"findings", "unread", "stream")', '"findings", "unread")')
# payloads.py: the proxy's other roots' APIs read by their dialect's name
mutant('EPY1', '"ollama": _generic, "cohere": _generic,', '"cohere": _generic,')
# logs/audit.py: a value two tasks hold is one value of a session scored against the units found in its calls
mutant('ELA1', '        if group in found:\n', '        if False:\n')
mutant('ELA2', '            if (group, unit.id) in counted:\n                continue\n', '')
mutant('ELA3', 'for _, unit in sorted({canonical[i].id: canonical[i] for i in unit_ids}.items()):',
       'for unit in (units[i] for i in sorted(unit_ids)):')
mutant('ELA4', 'by_id, log.found_in_calls.keys())', 'by_id)')
# logs/__init__.py, batch_api.py: a gzipped batch paired with the files beside the log, not beside its copy
mutant('EL1', 'reading = READING.set(log.path)', 'reading = READING.set(None)')
mutant('EB1', 'return path.suffix.lower() == ".gz"', 'return path.suffix == ".gz"')
mutant('EB2', 'uncompressed_name(entry).suffix.lower()', 'entry.suffix.lower()')
mutant('EB3', 'with utf8_copy(output, GZIP) if _compressed(output) else nullcontext(output) as text:',
       'with nullcontext(output) as text:')
mutant('EB4', 'original = READING.get() or path', 'original = path')
# logs/discovered.py, logs/otel_genai.py
mutant('EDH1', '{"noreply", "no-reply"} & set(domain.split(".")) or placeholder_mailbox(value):',
       '{"noreply", "no-reply"} & set(domain.split(".")):')
mutant('EDH2', '    if change_count(value, before, after):\n', '    if False:\n')
mutant('EO1', '_CACHE_WRITTEN = (("anthropic", "cacheCreationInputTokens"), ("bedrock", "usage", '
       '"cacheWriteInputTokens"))',
       '_CACHE_WRITTEN = (("anthropic", "cacheCreationInputTokens"), ("bedrock", "cacheWriteInputTokens"))')
# annotate/prelabel.py, recognizers/contact.py, health.py, secrets.py: a template's blanks, a change's counts
mutant('EPL1', '(_in_message_id(doc, m) or placeholder_mailbox(text[m.start:m.end]))', '_in_message_id(doc, m)')
mutant('EPL2', 'text[m.start:m.end], text[max(0, m.start - 80):m.start], text[m.end:m.end + 80])',
       'text[m.start:m.end], "", text[m.end:m.end + 80])')
mutant('ECT1', 'r"(?:^|\\.)(?:example\\.(?:com|net|org)|example|test|invalid|localhost)$"',
       'r"(?:example\\.(?:com|net|org)|example|test|invalid|localhost)$"')
mutant('ECT2', 'bool(_BLANK_DOMAIN.fullmatch(domain))', 'bool(_BLANK_DOMAIN.search(domain))')
mutant('ECT3', 'mailbox in _TEMPLATE_MAILBOXES and bool(_DOCUMENTATION_DOMAIN.search(domain))',
       'bool(_DOCUMENTATION_DOMAIN.search(domain))')
mutant('EH1', '_CHANGE_COUNT_BEFORE = re.compile(r"(?<![\\w.])[-+−]?', '_CHANGE_COUNT_BEFORE = re.compile(r"[-+−]?')
mutant('EH2', 'return value.strip().lower() in ("deletion", "deletions") and bool(', 'return bool(')
mutant('EH3', '\n        or _CHANGE_COUNTS_AROUND.search(before[-80:] + " " + after[:80]))', ')')
mutant('EK1', '|x{6,}|\\*{4,}|0{8,}|', '|\\*{4,}|0{8,}|')
mutant('EK2', 'return "example" in value.casefold() or bool(_TEMPLATE_BLANK.search(value))',
       'return "example" in value.casefold()')
# annotate/workspace.py: a DataFrame printed as pandas prints it
mutant('EW1', 'fields = _outside(_line_fields(text, file, _RECORD_START.get(suffix)), aligned) + _markdown_tables(',
       'fields = _line_fields(text, file, _RECORD_START.get(suffix)) + _markdown_tables(')
mutant('EW2', 'if i == 0 or cells[i - 1].end <= f.start:', 'if i == 0 or cells[i - 1].end < f.start:')
mutant('EW3', 'if not line[:1].strip() or len(line.rstrip()) != edges[-1]:', 'if len(line.rstrip()) != edges[-1]:')
mutant('EW4', 'if start >= edge or not line[edge - 1].strip() or line[start:edge].strip() == "":',
       'if start >= edge or line[start:edge].strip() == "":')
mutant('EW5', 'cells.append((start + lead, edge))', 'cells.append((start, edge))')
mutant('EW6', 'if key != "..." and values[key] != "..."]', 'if key != "..."]')
# cli/audit.py, report/summary.py: no model call is no clean audit; a clean audit has no evidence to show
mutant('ECA1', 'if log.errors or not summary["calls"]:', 'if log.errors:')
mutant('ERP1', '    elif wanted:  # a clean audit', '    else:  # a clean audit')
# run/scheduler.py: Ctrl-C noted by a handler, acted on between waits
mutant('ERS1', 'while pending and not pressed:', 'while pending:')
mutant('ERS2', '        if not pressed:\n            signal.signal(signal.SIGINT, previous)',
       '        if True:\n            signal.signal(signal.SIGINT, previous)')
mutant('ERS3', 'previous = signal.signal(signal.SIGINT, lambda signum, _frame: pressed.append(signum))',
       'previous = signal.getsignal(signal.SIGINT)')

# ---- session 27's round: the code changed in session 26 (`git diff 4d08ba3 7612eb1 -- ec2audit`) ----
# logs/acebench_audit.py: AceBench's cloud audit, a run's folder, its grader's log
mutant('HA1', 'return record is not None and _KEYS <= record.keys() and isinstance(record.get("input"), list)',
       'return record is not None and _KEYS <= record.keys()')
mutant('HA2', 'return (folder.parent.name, folder.name) if (folder / "usage.json").is_file() else None',
       'return (folder.parent.name, folder.name)')
mutant('HA3', 'return (folder.parent.name, folder.name) if', 'return (folder.name, folder.parent.name) if')
mutant('HA4', 'return record is not None and (_GRADER_KEYS <= record.keys()',
       'return record is not None and ({"type", "model", "messages"} <= record.keys()')
mutant('HA5', 'return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0',
       'return value if isinstance(value, int) else 0')
mutant('HA6', '"cached_tokens": count("cache_read_tokens"), "cache_creation_tokens": count("cache_write_tokens")',
       '"cached_tokens": count("cache_write_tokens"), "cache_creation_tokens": count("cache_read_tokens")')
mutant('HA7', '"session_id": "/".join(run) if run', '"session_id": run[1] if run')
mutant('HA8', '"task_id": run[0] if run else None', '"task_id": run[1] if run else None')
# logs/openclaw_jsonl.py, logs/__init__.py: a run's transcript, the grader's log named, the formats' order
mutant('HOC1', 'run = acebench_audit.run_of(path) if path.name == "chat.jsonl" else None', 'run = None')
mutant('HOC2', 'task_id=run[0] if run else None)', 'task_id=None)')
mutant('HOC3', '"/".join(run) if run else None', 'run[1] if run else None')
mutant('HL1', 'if not fmt and acebench_audit.grader_log(head):', 'if acebench_audit.grader_log(head):')
mutant('HL2', '    gemini_cli, cline, inspect_ai, acebench_audit,\n', '    cline, inspect_ai, acebench_audit,\n')
# logs/gemini_cli.py: Gemini CLI sessions, .json and .jsonl
mutant('HG1', 'if record is not None and "sessionId" in record and "projectHash" in record:',
       'if record is not None and "sessionId" in record:')
mutant('HG2', 'texts.append(output if isinstance(output, str) else json.dumps(response, ensure_ascii=False))',
       'texts.append(json.dumps(response, ensure_ascii=False))')
mutant('HG3', '        elif part is not None:\n            texts.append(json.dumps(part, ensure_ascii=False))\n', '')
mutant('HG4', '    if isinstance(parts, dict):\n        parts = [parts]\n', '')
mutant('HG5', '"cached": "cachedContentTokenCount",\n          ', '')
mutant('HG6', '"thoughts": "thoughtsTokenCount", ', '')
mutant('HG8', 'for c in calls if c.get("result") is not None]', 'for c in calls]')
mutant('HG9', 'messages[record["id"]] = record', 'messages.setdefault(record["id"], record)')
mutant('HG10', '        elif "sessionId" in record and "projectHash" in record:\n'
               '            session = str(record["sessionId"])\n', '')
mutant('HG12', 'if isinstance(response, str) and response:', 'if False:')
# logs/openai_log.py, json_messages.py, base.py: Helicone's export, a broken document said in one line
mutant('HO2', ' or _tagged_session(record)\n', '\n')
mutant('HO3', 'k.lower() == _SESSION_PROPERTY', 'k == _SESSION_PROPERTY')
mutant('HO4', 'for key in ("request_properties", "properties"):', 'for key in ("request_properties",):')
mutant('HBA1', "({' '.join(str(exc).split())})", "({exc})")
# files.py, logs/audit.py: a table named .JSONL is JSON Lines; findings a few rows at a time
mutant('HF1', 'return path.suffix.lower() == ".jsonl"', 'return path.suffix == ".jsonl"')
mutant('HAU2', 'for at in range(0, max(len(rows), 1), HELD_ROWS):',
       'for at in range(0, max(len(rows), 1), HELD_ROWS + 1):')
# logs/batch_api.py: a batch under upper-case names
mutant('HB1', 'suffix = uncompressed_name(entry).suffix.lower()', 'suffix = uncompressed_name(entry).suffix')
# units.py: a misspelled key, a table of another format, a byte order mark
mutant('HU1', 'n=1, cutoff=0.7)\n        return f" (the line has', 'n=1, cutoff=0.9)\n        return f" (the line has')
mutant('HU3', 'if error == "missing":', 'if error == "value_error":')
mutant('HU4', '_HEADERS = ((",", "a CSV table"), ("\\t", "a tab-separated table"), (";", "a CSV table"))',
       '_HEADERS = ((",", "a CSV table"), (";", "a CSV table"))')
mutant('HU5', 'if len(cells) > 1 and any(', 'if len(cells) > 2 and any(')
mutant('HU7', '(b"PK\\x03\\x04", f"a zip archive (an Excel workbook?), {_ROW_AS_JSON}"),\n           ', '')
mutant('HU8', 'text = data.decode("utf-8-sig")', 'text = data.decode("utf-8")')
mutant('HU9', '    if line.lstrip().startswith(("{", "[")):\n        return None\n    for delimiter',
       '    for delimiter')
# acebench.py: a hybrid task's two channels, a missing workspace named, a byte order mark
mutant('HAB1', 'split = front.get("grading_weights") or front.get("qwen_grading_weights")',
       'split = front.get("grading_weights")')
mutant('HAB2', 'if checklist is None or not judge or not criteria or any(',
       'if checklist is None or not criteria or any(')
mutant('HAB4', 'rubric = rubric if sum(w for _, w in rubric) > 0 else [("LLM judge rubric", 1.0)]',
       'rubric = rubric or [("LLM judge rubric", 1.0)]')
mutant('HAB5', 'scale = checklist + judge', 'scale = 1.0')
mutant('HAB6', 'c.weight / total * checklist / scale if total else 0.0',
       'c.weight * checklist / scale if total else 0.0')
mutant('HAB7', 'w / rubric_total * judge / scale', 'w * judge / scale')
mutant('HAB10', 'while not gone.parent.is_dir():', 'while not gone.is_dir():')
mutant('HAB11', 'found_root=bool(root or acebench_root(path))', 'found_root=bool(root)')
# intercept/uploads.py: held chunks bounded by age and bytes, drops remembered
mutant('HUP1', 'if len(held.data) > self.max_bytes:', 'if len(held.data) >= self.max_bytes:')
mutant('HUP2', 'while self._held and self.bytes + len(held.data) > self.max_bytes:',
       'while self._held and self.bytes + len(held.data) >= self.max_bytes:')
mutant('HUP3', 'oldest = next(iter(self._held))', 'oldest = next(reversed(self._held))')
mutant('HUP4', '        held.since = self.clock()\n', '')
mutant('HUP5', 'if now - oldest.since <= self.max_age_s:', 'if now - oldest.since < self.max_age_s:')
mutant('HUP6', '            self.bytes -= len(held.data)\n', '            pass\n')
mutant('HUP7', 'DROPPED_KEPT = 1024', 'DROPPED_KEPT = 0')
mutant('HUP8', '    def restart(self, session: tuple) -> None:\n        self._dropped.pop(session, None)',
       '    def restart(self, session: tuple) -> None:\n        pass')
mutant('HUP9', '        self._dropped[session] = why\n', '')
mutant('HUP10', '        self.bytes += len(held.data)\n', '')
# intercept/app.py: a chunk after a drop, the Uploads API's seams, URLs elsewhere, errors mid-stream
mutant('HP1', 'if why is not None and offset != "0":', 'if why is not None:')
mutant('HP2', '        self.held_uploads.restart(session)\n', '')
mutant('HP3', 'raise Failure(410, f"resumable upload {why}', 'raise Failure(400, f"resumable upload {why}')
mutant('HP4', '            self._record_drops(dropped)\n            return None', '            return None')
mutant('HP5', 'self._record_drops(self.held_uploads.expire())', 'self.held_uploads.expire()')
mutant('HP6', '        self.part_ends.expire()\n', '')
mutant('HP7', 'if match is None or self.config.enforce == "observe":', 'if match is None:')
mutant('HP11', '                self.part_ends.hold(session, previous)\n', '')
mutant('HP13', '_SEAM_TIMES, _SEAM_CAP = 4, 4096', '_SEAM_TIMES, _SEAM_CAP = 1, 4096')
mutant('HP15', 'why = self.part_ends.dropped(session)\n        if why is not None:',
       'why = self.part_ends.dropped(session)\n        if False:')
mutant('HP16', 'if url.startswith(moved[0] + "/"):', 'if url.startswith(moved[0]):')
mutant('HP17', 'elif enforcing and (urllib.parse.urlsplit(url).scheme or url.startswith("//")):',
       'elif enforcing and urllib.parse.urlsplit(url).scheme:')
mutant('HP18', 'k.lower() in (_UPLOAD_NEXT_URL if location else _NEXT_URL)', 'k.lower() in _UPLOAD_NEXT_URL')
mutant('HP19', '_REDIRECTS = frozenset({301, 302, 303, 307, 308})', '_REDIRECTS = frozenset({301, 302, 303, 307})')
# the seam's reading moved to intercept/seams.py with guard17 (HP9, HP10 and HP14 retargeted there)
mutant('HSM1', 'if row["start"] + shift < reach and', 'if row["start"] + shift <= reach and')
mutant('HSM2', 'row["grade"] < grade or', 'row["grade"] <= grade or')
mutant('HSM3', 'cut = len(decoder.decode(before))', 'cut = len(before)')
mutant('HP20', '_UPLOAD_HEADERS = frozenset({"x-goog-upload-protocol", _UPLOAD_COMMAND.decode()})',
       '_UPLOAD_HEADERS = frozenset({_UPLOAD_COMMAND.decode()})')
mutant('HP21', '_UPLOAD_NEXT_URL = _NEXT_URL | {b"location"}', '_UPLOAD_NEXT_URL = _NEXT_URL')
mutant('HP22', 'location, self.config.enforce != "observe")', 'location, self.config.enforce == "block")')
mutant('HP23', '                        if failed:  # the answer names',
       '                        if False:  # the answer names')
# intercept/sse.py: the error an upstream sends mid-stream
mutant('HSS1', '    if error is None and data.get("type") == "error":\n        error = data\n', '')
mutant('HSS2', '    if error is None and isinstance(data.get("response"), dict):\n'
               '        error = data["response"].get("error")\n', '')
mutant('HSS4', 'return error[:300] if isinstance(error, str) and error else None',
       'return error[:300] if isinstance(error, str) else None')
# intercept/dialects.py: Azure OpenAI's root
mutant('HD1', 'tail, root = _AZURE_PREFIX.sub("", tail, count=1), "/v1"', 'tail = _AZURE_PREFIX.sub("", tail, count=1)')
mutant('HD3', '*GENERIC_ROOTS, AZURE_ROOT, *(', '*GENERIC_ROOTS, *(')
# detect/views.py: base64 without a hint, a label before it; the passport zone's dates
mutant('HV1', '_UNHINTED_LEAST = 20', '_UNHINTED_LEAST = 8')
mutant('HV3', '    out.append(_base64 if any(h in lower for h in _HINTS_B64) else _long_base64)\n',
       '    if any(h in lower for h in _HINTS_B64):\n        out.append(_base64)\n')
mutant('HV4', 'labelled = "-" in text[start:start + _LABEL] or "_" in text[start:start + _LABEL]',
       'labelled = "-" in text[start:start + _LABEL]')
mutant('HV5', 'if (end - start) % 4 == 1 and not labelled:', 'if (end - start) % 4 == 1:')
mutant('HV9', 'if past and year > datetime.date.today().year:', 'if past and year >= datetime.date.today().year:')
mutant('HV10', 'if past and year > datetime.date.today().year:', 'if year > datetime.date.today().year:')
mutant('HV11', '_mrz_date(groups[6], past=False)', 'groups[6]')
# detect/forms/spaced_hex.py: bytes in hex one separator apart
mutant('HX1', '_LEAST_BYTES = 8', '_LEAST_BYTES = 6')
mutant('HX2', '_APART = r"(?:[ :]|[ \\t]*\\r?\\n[ \\t]*)"', '_APART = r"(?:[ :])"')
mutant('HX4', '{{{_LEAST_BYTES - 1},}}(?![\\w:])")', '{{{_LEAST_BYTES - 1},}}(?!\\w)")')
# detect/forms/blood_types.py: a blood type in another notation
mutant('HBT1', 'if not m or not m[2]:', 'if not m:')
mutant('HBT2', '    forms += [f"{group}{s}" for s in _RH_SIGNS[sign]]\n', '')
mutant('HBT4', 'before = start and is_word_char(text[start - 1])', 'before = False')
mutant('HBT5', 'and (is_word_char(text[end]) or text[end] in "+-−")', 'and is_word_char(text[end])')
mutant('HBT7', '    forms += [f"{r}{sep}{group}" for r in rh for sep in (" ", ", type ")]\n', '')
mutant('HBT8', '(阴性|阳性|negative|positive|neg|pos|[-+−])?")', '(阴性|阳性|negative|positive|[-+−])?")')
mutant('HNV1', ' and not is_blood_type(form))', ')')
# detect/forms/birth_years.py: a birth year after words naming it
mutant('HBY1', '_BIRTH_FIELD = re.compile(r"birth|\\bdob\\b|born|出生|生日")',
       '_BIRTH_FIELD = re.compile(r"birth|born|出生|生日")')
mutant('HBY2', '_MORE_DATE = re.compile(r"\\d|[-/.]', '_MORE_DATE = re.compile(r"[-/.]')
mutant('HBY3', '|年?\\d{1,2}月|', '|')
mutant('HBY4', '(start and text[start - 1].isascii() and text[start - 1].isalnum())',
       '(start and text[start - 1].isalnum())')
mutant('HBY5', '"partial.fragment", FRAGMENT, 0.6)', '"partial.fragment", FRAGMENT, 1.0)')
mutant('HBY6', 'field = cu.unit.field.lower().replace("_", " ")', 'field = cu.unit.field.lower()')
# detect/forms/cjk_capital_numerals.py: 壹 贰 叁 … read as the common numerals
mutant('HCN1', '\n                                and not _MEASURE.match(text, m.end())):', '):')
mutant('HCN2', '_SURNAMES = frozenset("陆陸伍")', '_SURNAMES = frozenset("陆伍")')
mutant('HCN4', '_COMMON = str.maketrans(_CAPITALS, "一二二三三四五六六七八九十百千")',
       '_COMMON = str.maketrans(_CAPITALS, "一二二三三四五六六八七九十百千")')
mutant('HCN5', '_MEASURE = re.compile(r"[级級期', '_MEASURE = re.compile(r"[級期')
# detect/forms/graded_terms.py: a term and its grade written another way
mutant('HGT1', 'if not m or bool(m["pre"]) == bool(m["post"]):', 'if not m or not (m["pre"] or m["post"]):')
mutant('HGT2', '_HAN_VALUES = {han_number(n): n for n in range(1, 100)}',
       '_HAN_VALUES = {han_number(n): n for n in range(1, 10)}')
mutant('HGT3', 'for number in (str(n), han_number(n)):', 'for number in (str(n),):')
mutant('HGT7', '_NUMERALS = "〇零一二三四五六七八九十百0123456789"', '_NUMERALS = "〇零一二三四五六七八九0123456789"')
mutant('HGT8', 'return not (start and text[start - 1] in _NUMERALS)', 'return True')
# detect/compiled.py, exact.py, normalize.py: the road's pinyin compiled; a phone's national format; amounts grouped
mutant('HC1', '"".join(lazy_pinyin(m[1]))', '" ".join(lazy_pinyin(m[1]))')
mutant('HC3', 'forms += [national, *(["0" + national] if not national.startswith("0") else [])]', 'forms += [national]')
mutant('HAT1', 'self._roads[i] = cu.road', 'self._roads[i] = None')
mutant('HE1', '_GROUP_BEFORE.search(text, max(0, start - 2), start) or ', '')
mutant('HE2', ' or _DECIMALS_AFTER.match(text, end))', ')')
mutant('HE4', '_DECIMALS_AFTER = re.compile(r"[.,]\\d")', '_DECIMALS_AFTER = re.compile(r",\\d")')
# detect/forms/separators.py, places.py: long numbers, plates in pinyin, ZIP codes
mutant('HS1', 'long_number = len(norm) >= _GROUPED_FROM and norm.isascii() and norm.isdigit()', 'long_number = False')
mutant('HS3', 'range(len(norm) % 3 or 3, len(norm) + 1, 3)', 'range(len(norm) % 3, len(norm) + 1, 3)')
mutant('HS5', 'plate = norm[:1] in PROVINCES and norm[1:2].isascii() and norm[1:2].isalpha()',
       'plate = norm[:1] in PROVINCES')
mutant('HPL2', '        areas += _ZIP.findall(chunk)\n', '')

# ---- session 28's round: the code changed in session 27 (`git diff 7612eb1 fc60c30 -- ec2audit`) ----
# intercept/seams.py: the seam's views, its cut and reach, the findings across it
mutant('ISM1', 'reach = cut + (1 if decoder.getstate()[0] else 0)', 'reach = cut')
mutant('ISM2', '_GROUP = 4', '_GROUP = 2')
mutant('ISM3', ' | {(0, e) for e in range(_GROUP)}', '')
mutant('ISM4', '{(s, (len(text) - s) % _GROUP) for s in range(_GROUP)}', '{(s, 0) for s in range(_GROUP)}')
mutant('ISM5', 'if row["start"] + shift < reach and cut < row["end"] + shift:',
       'if row["start"] + shift < cut and cut < row["end"] + shift:')
mutant('ISM6', 'or row["grade"] < grade or', 'or row["grade"] <= grade or')
mutant('ISM8', 'text = (before + after).decode("utf-8", "replace")',
       'text = before.decode("utf-8", "replace") + after.decode("utf-8", "replace")')
# intercept/form_data.py: a declared charset, UTF-8 cut at a part's ends
mutant('IFD1', 'urllib.parse.urlencode(pairs, encoding=self.charset)', 'urllib.parse.urlencode(pairs)')
mutant('IFD2', 'return part.edges[0] + text + part.edges[1]', 'return text + part.edges[1]')
mutant('IFD3', 'return part.edges[0] + text + part.edges[1]', 'return part.edges[0] + text')
mutant('IFD5', 'head = len(data) - len(data.lstrip(bytes(range(0x80, 0xC0))))', 'head = 0')
mutant('IFD6', 'part.edges = (data[:head], tail)', 'part.edges = (data[:head], b"")')
mutant('IFD7', 'return None if name in ("utf-8", "ascii") else name', 'return None')
mutant('IFD9', 'if text is None:\n            text, codec, part.edges = other, declared, (b"", b"")',
       'if other is not None:\n            text, codec, part.edges = other, declared, (b"", b"")')
mutant('IFD10', 'declared = _declared(ctype) if codec is None else None', 'declared = _declared(ctype)')
mutant('IFD11', 'if part.encoding == "utf-8" and len(lines) > 1 and all(', 'if len(lines) > 1 and all(')
mutant('IFD12', 'part.encoding = codec or "utf-8"', 'part.encoding = "utf-8"')
mutant('IFD14', 'keep_blank_values=True, encoding=codec, errors="strict")', 'keep_blank_values=True, errors="strict")')
mutant('IFD16', 'pairs, charset = other, str(declared)', 'pairs = other')
mutant('IFD17', 'return _read_urlencoded(raw, _declared(content_type.encode("latin-1")))',
       'return _read_urlencoded(raw, None)')
# intercept/fields.py: a number read as written
mutant('IFL1', '_NUMBER_REACH = 40', '_NUMBER_REACH = 16')
mutant('IFL2', 'if not number.is_finite() or abs(number.adjusted()) > _NUMBER_REACH:', 'if not number.is_finite():')
mutant('IFL3', 'return exact if len(exact) <= _NUMBER_REACH else value.text', 'return exact')
mutant('IFL4', 'exact = format(number, "f")', 'exact = str(number)')
mutant('IFL5', 'return [number_text(v) for v in value], ","', 'return [str(v) for v in value], ","')
mutant('IFL6', 'parsed = json.loads(text, parse_float=Number)', 'parsed = json.loads(text)')
mutant('IFL7', 'text = number_text(value)\n        edits', 'text = str(value)\n        edits')
# intercept/app.py: every redirect's Location, a streamed 2xx only, `complete`'s order of parts
mutant('IAP1', '_REDIRECTS = frozenset({301, 302, 303, 307, 308})', '_REDIRECTS = frozenset({307, 308})')
mutant('IAP2', '_REDIRECTS = frozenset({301, 302, 303, 307, 308})', '_REDIRECTS = frozenset({301, 302, 307, 308})')
mutant('IAP3', 'if 200 <= upstream.status < 300 and upstream.content_type in _STREAMED:',
       'if upstream.status < 400 and upstream.content_type in _STREAMED:')
mutant('IAP4', '            if match.group(2) == "complete":\n                await self._audit_order(ex, upload)\n',
       '')
mutant('IAP5', 'across = await self._across(running, head.data)', 'across = await self._across(head.data, running)')
mutant('IAP6', 'running = (running + head.data)[-self.seam_bytes:] if len(head.data) < self.seam_bytes else tail.data',
       'running = tail.data')
mutant('IAP7', 'ex.upload_part = (upload, data[:self.seam_bytes], data[-self.seam_bytes:])',
       'ex.upload_part = (upload, data[:self.seam_bytes], data[:self.seam_bytes])')
mutant('IAP8', '            self._keep_part(ex, response)\n', '')
mutant('IAP10', '"a redirect" if upstream.status in _REDIRECTS else "",\n                                      self.'
                'config.enforce != "observe")',
       '"a redirect" if upstream.status in _REDIRECTS else "",\n                                      True)')
# logs/audit.py: a serial audit's calls and findings written as it goes, the tokens summed only where all logged
mutant('IAU1', 'SPILL_ROWS = 20_000', 'SPILL_ROWS = 200_000_000')
mutant('IAU2', 'if held and max(len(log.calls), len(log.result.finding_rows)) >= SPILL_ROWS:',
       'if held and len(log.result.finding_rows) >= SPILL_ROWS:')
mutant('IAU3', 'if held and max(len(log.calls), len(log.result.finding_rows)) >= SPILL_ROWS:',
       'if held and max(len(log.calls), len(log.result.finding_rows)) > SPILL_ROWS:')
mutant('IAU4', '    if log.spilled and log.calls:  # every call and finding in parts, in order\n        spill_held()\n',
       '')
mutant('IAU5', '        assert held is not None\n        _fold_first(best, log)\n', '        assert held is not None\n')
mutant('IAU7', 'best[key] = (rank, row, carrier, log.calls[carrier["call"] - first])',
       'best[key] = (rank, row, carrier, log.calls[carrier["call"] - first - 1])')
mutant('IAU8', 'yield from (pl.read_parquet(s.path("findings")) for s in self.spilled if s.rows)',
       'yield from (pl.read_parquet(s.path("findings")) for s in self.spilled[1:] if s.rows)')
mutant('IAU9', 'written = [(at, s) for at, s in enumerate(self.spilled) if s.calls and s.serial]',
       'written: list = []')
mutant('IAU10', 'return pl.when(_USAGE.all()).then(pl.col(column).sum())', 'return pl.col(column).sum()')
mutant('IAU12', 'cloud_input_tokens=_token_sum("input_tokens"), cloud_cached_tokens=',
       'cloud_input_tokens=pl.col("input_tokens").sum(), cloud_cached_tokens=')
mutant('IAU13', 'calls=pl.len(), characters=pl.col("characters").sum(), input_tokens=_token_sum("input_tokens"),',
       'calls=pl.len(), characters=pl.col("characters").sum(), input_tokens=pl.col("input_tokens").sum(),')
# logs/acebench_audit.py, logs/__init__.py: a run's usage.json named, a copy outside a run folder
mutant('IAB1', '"session_id": "/".join(run) if run else record.get("session_id")',
       '"session_id": "/".join(run) if run else None')
mutant('IAB3', 'for log in ("chat.jsonl", "cloud_assistant_audit.jsonl"))', 'for log in ("chat.jsonl",))')
mutant('IAB4', 'what = RUN_FILES.get(path.name)', 'what = RUN_FILES.get(path.name, USAGE)')
mutant('ILI1', '    if not fmt and (what := acebench_audit.run_file(path)):\n        return InputError(what'
               ', file=str(path))\n',
       '')
mutant('ILI2', 'if not fmt and (what := acebench_audit.run_file(path)):', 'if (what := acebench_audit.run_file(path)):')
# logs/report.py: the time of a first call in UTC, plurals, unknown tokens
mutant('IRP1', 'moment = instant(row["timestamp"])', 'moment = instant((row["timestamp"] or "")[:19])')
mutant('IRP2', 'moment.strftime(" %H:%M:%SZ")', 'moment.strftime(" %H:%M:%S")')
mutant('IRP3', 'tokens(p["input_tokens"]), tokens(p["output_tokens"])',
       'str(p["input_tokens"] or 0), tokens(p["output_tokens"])')
mutant('IRP4', "{plural(summary['units'], 'unit')}", "{summary['units']} units")
# console.py, cli/intercept.py: tokens unknown, what the policy did
mutant('ICO1', 'return "unknown" if value is None else f"{value:,}"', 'return "0" if value is None else f"{value:,}"')
mutant('ICI1', 'calls = [r for r in recorded if r.forwarded]', 'calls = recorded')
mutant('ICI2', 'if blocked := len(recorded) - len(calls):', 'if blocked := len(recorded) - len(calls) - 1:')
mutant('ICI3', "plural(sum(r.redactions or 0 for r in redacted), 'value')", "plural(len(redacted), 'value')")
mutant('ICI4', "{plural(len(redacted), 'call')} before", "{plural(len(calls), 'call')} before")
mutant('ICI8', '    if recorded:\n        lines.append(f"audit them',
       '    if calls:\n        lines.append(f"audit them')
mutant('ICI9', '**{f"cloud_{k}": metrics.token_total(sent, k) for k',
       '**{f"cloud_{k}": sum(getattr(r, k) or 0 for r in sent) for k')
# report/summary.py, html.py, terminal.py: the store as --payloads, unknown counts
mutant('IRS1', 'if payloads_path is not None and _is_sqlite(payloads_path):', 'if False:')
mutant('IRS2', 'if r.id in ids and isinstance(r.request, dict)}', 'if isinstance(r.request, dict)}')
mutant('IRS3', 'payloads.update(_store_payloads(store_path, ids, episode))',
       'payloads.update(_store_payloads(store_path, ids))')
mutant('IRH1', '_cell(_int(r.cloud_input_tokens, "unknown"), r.cloud_input_tokens)',
       '_cell(_int(r.cloud_input_tokens), r.cloud_input_tokens)')
mutant('IRT1', 'return "unknown" if kind in ("usd", "int") else "–"', 'return "unknown" if kind == "usd" else "–"')
mutant('IRT2', 'leaked: grade ≥ 0.7)', 'leaked: grade ≥ 0.3)')
# detect/forms/keyed_pins.py: a code with its key said in words
mutant('IKP1', '{{3,11}}"\n           rf"|{_WORD_DIGIT}', '{{2,11}}"\n           rf"|{_WORD_DIGIT}')
mutant('IKP2', 'if m.group("key").isascii() and not _PRESSED.search(text, m.end("digits"), m.end()):', 'if False:')
mutant('IKP3', 'yield m.start(), m.end(), _typed(m.group("digits")) + _KEYS[m.group("key").lower()]',
       'yield m.start(), m.end(), _typed(m.group("digits"))')
mutant('IKP4', '"hash": "#", "pound": "#",', '"hash": "#", "pound": "*",')
mutant('IKP5', '_KEY_AFTER = re.compile(rf"(?<![0-9A-Za-z.\\-{\'\'.join(CJK_NUMERALS)}]){_DIGITS}',
       '_KEY_AFTER = re.compile(rf"{_DIGITS}')
# detect/forms/ratios.py: shares written as a ratio
mutant('IRA1', 'abs(sum(float(s) for s in shares) - 100) > 0.01', 'abs(sum(float(s) for s in shares) - 100) > 1')
mutant('IRA2', 'if len(shares) < 2 or abs(', 'if len(shares) < 1 or abs(')
mutant('IRA3', 'and not _GOES_ON.match(text, end) \\\n                    and not _CONTINUES.match(text, max(0, star'
               't - 2), start):\n                span = view.view.to_original(start, end)\n                for i in '
               'units:\n                    yield Hit(i, *span, "forms.ratio"',
       '\\\n                    and not _CONTINUES.match(text, max(0, start - 2), start):\n                span = vi'
       'ew.view.to_original(start, end)\n                for i in units:\n                    yield Hit(i, *span, "f'
       'orms.ratio"')
mutant('IRA4', 'return [sep.join(f"{s}{sign}" for s in shares) for sep',
       'return [sep.join(f"{s}{sign}" for s in sorted(shares)) for sep')
# detect/forms/digit_prefixes.py: a grouped number cut short
mutant('IDP1', '_LEAST_DIGITS = 6', '_LEAST_DIGITS = 4')
mutant('IDP2', 'least = max(_LEAST_DIGITS, -(-2 * digits // 3))', 'least = max(_LEAST_DIGITS, 2 * digits // 3)')
mutant('IDP3', 'if c.isdigit() and least <= seen < digits:', 'if c.isdigit() and least <= seen <= digits:')
mutant('IDP4', 'if cu.rules.fragment != "tail" or not _GROUPED.fullmatch(form):', 'if not _GROUPED.fullmatch(form):')
mutant('IDP6', 'if bounded(text, start, end) and not _GOES_ON.match(text, end) \\\n                    and not _CONT'
               'INUES.search(text, max(0, start - 2), start):\n                span = view.view.to_original(start, e'
               'nd)\n                for i in units:\n                    yield Hit(i, *span, "partial.prefix"',
       'if bounded(text, start, end) \\\n                    and not _CONTINUES.search(text, max(0, start - 2), star'
       't):\n                span = view.view.to_original(start, end)\n                for i in units:\n            '
       '        yield Hit(i, *span, "partial.prefix"')
# detect/forms/conversions.py: kg ↔ lb, cm → feet and inches
mutant('ICV1', '_POUNDS_PER_KG = 2.20462262', '_POUNDS_PER_KG = 2.2')
mutant('ICV2', 'numbers = dict.fromkeys((f"{round(number)}", f"{number:.1f}"))',
       'numbers = dict.fromkeys((f"{round(number)}",))')
mutant('ICV4', 'feet, inches = divmod(round(number / _CM_PER_INCH), 12)',
       'feet, inches = divmod(int(number / _CM_PER_INCH), 12)')
mutant('ICV5', 'return _written(number / _POUNDS_PER_KG, "kg")', 'return _written(number * _POUNDS_PER_KG, "kg")')
mutant('ICV7', 'if bounded(text, start, end):\n                span = view.view.to_original(start, end)\n           '
               '     for i in units:\n                    yield Hit(i, *span, "forms.conversion"',
       'if True:\n                span = view.view.to_original(start, end)\n                for i in units:\n       '
       '             yield Hit(i, *span, "forms.conversion"')
# detect/forms/dates.py: a two-digit year
mutant('IDT1', 'forms += _short_year_forms(y % 100, m, d)', 'forms += _short_year_forms(y % 1000, m, d)')
mutant('IDT2', 'for sep in "/.-" for a, b in ((mm, dd), (dd, mm))]',
       'for sep in "/." for a, b in ((mm, dd), (dd, mm))]')
mutant('IDT3', 'return padded + [f"{a}/{b}/{yy:02d}" for a, b in ((m, d), (d, m))]',
       'return padded + [f"{a}{sep}{b}{sep}{yy:02d}" for sep in "/." for a, b in ((m, d), (d, m))]')
mutant('IDT5', 'return padded + [f"{a}/{b}/{yy:02d}" for a, b in ((m, d), (d, m))]', 'return padded')
# detect/forms/context_fragments.py: first three or five, the mailbox's provider
mutant('ICF1', '"first five", "first 5", "first half"', '"first half"')
mutant('ICF2', '"前三位", "前3位", "前五位", "前5位", "前半段"', '"前半段"')
mutant('ICF3', 'key_type = _KEY_TYPE.match(cu.forms[0]) if "@" not in cu.forms[0] else None',
       'key_type = _KEY_TYPE.match(cu.forms[0])')
mutant('ICF4', '            provider = _PROVIDER_AFTER.match(text, c_end)  # "tianzh',
       '            provider = None  # "tianzh')
mutant('ICF5', 'return "@" not in value or value.split("@")[-1].split(".")[0] == provider',
       'return "@" in value and value.split("@")[-1].split(".")[0] == provider')
# detect/forms/spoken_emails.py: letters spelled out, the NATO alphabet
mutant('ISE1', '"golf": "g",', '"golf": "f",')
mutant('ISE3', 'spoken = _SPELLED_RUN.sub(lambda m: "".join(_NATO.get(t.lower(), t) for t in m.group().split()), spo'
               'ken)',
       'spoken = _SPELLED_RUN.sub(lambda m: "".join(_NATO.get(t, t) for t in m.group().split()), spoken)')
mutant('ISE4', '_UNREAD = re.compile(rf"\\s(?:{\'|\'.join(_JOINERS)})\\s|(?<!\\S){_SPELLED}", re.IGNORECASE)',
       '_UNREAD = re.compile(rf"\\s(?:{\'|\'.join(_JOINERS)})\\s", re.IGNORECASE)')
mutant('ISE5', 'for word in (*_JOINERS, "dot")),', 'for word in _JOINERS),')
# detect/forms/addresses.py: numbered roads, prefectures, village groups in Han numerals
mutant('IAD1', '("county road", "county rd", "co rd", "co road", "cr"), ',
       '("county road", "county rd", "co rd", "co road"), ')
mutant('IAD4', '(?P<city>[\\u4e00-\\u9fff]{2,9}?(?:市|州|地区|盟))?',
       '(?P<city>[\\u4e00-\\u9fff]{2,9}?(?:市|地区|盟))?')
mutant('IAD5', 'total, digit = total + (digit or 1) * (10 if ch == "十" else 100), 0',
       'total, digit = total + digit * (10 if ch == "十" else 100), 0')
mutant('IAD6', 'return f"{han_number(n) if han and 0 < n < 200 else n}{m[2]}"', 'return f"{n}{m[2]}"')
mutant('IAD7', 'short_city = re.sub(r"(?:自治州|市|州|地区|盟)$", "", city)', 'short_city = city.removesuffix("市")')
mutant('IAD8', 'not any(c.isdigit() for local in locals_ for c in local)', 'not any(c.isdigit() for c in m["local"])')
mutant('IAD9', 'return list(dict.fromkeys(forms + [_numbers_as(f, han) for han in (False, True) for f in forms]))',
       'return list(dict.fromkeys(forms + [_numbers_as(f, False) for f in forms]))')
# detect/forms/initials.py: a hyphenated part's initials as people write them
mutant('IIN1', 'return [".-".join(letters) + ".", "-".join(letters) + ".", ".".join(letters) + ".", "-".join(letters)]',
       'return [".-".join(letters) + "."]')
mutant('IIN2', 'return patterns + [form for form in forms if "-" in form]', 'return patterns + forms')
mutant('IIN3', 'for sep in ("", " ")]', 'for sep in ("",)]')
# detect/forms/masked.py: a short code masked to its length
mutant('IMA1', '_SHORT_CODE = 8', '_SHORT_CODE = 4')
mutant('IMA3', 'and len(token) == unit_len <= _SHORT_CODE', 'and unit_len <= _SHORT_CODE')
mutant('IMA4', '        and self.units[i].rules.name == "credential"\n', '\n')
# detect/forms/near_verbatim.py: a qualifier replaced is another stage or side
mutant('INV1', ' or _replaced_first(form, text, start):', ':')
mutant('INV2', 'and text[start - 1] not in form and text.startswith(form[1:3], start))',
       'and text.startswith(form[1:3], start))')
# detect/forms/places.py: a group or house numbered in Han numerals
mutant('IPL1', '|[〇零一二三四五六七八九十百]{1,4}[组队社号號栋幢]")', '")')
# detect/forms/surnames.py: titled and familiar surnames through compile_forms
mutant('ISN1', 'words = _SURNAME_WORDS if surname and (cu.unit.task_id, surname) not in shared else []',
       'words = _SURNAME_WORDS if surname else []')
mutant('ISN2', 'return ["老" + han_surname(cu.forms[0]), "小" + han_surname(cu.forms[0])]',
       'return ["老" + han_surname(cu.forms[0])]')
mutant('ISN3', 'if not (_own_surname(cu) and HAN_NAME.fullmatch(cu.forms[0])):',
       'if not HAN_NAME.fullmatch(cu.forms[0]):')
# detect/learned_grader.py, e5_judge.py: the second head's logit
mutant('ILR1', 'math.nan if reading.splits_logit is None else _clip(reading.splits_logit, -LOGIT, LOGIT)]',
       'math.nan if reading.splits_logit is None else reading.splits_logit]')
mutant('ILR2', 'math.nan if reading.splits_logit is None else _clip(',
       '0.0 if reading.splits_logit is None else _clip(')
mutant('ILR3', 'x = np.asarray(rows, dtype=float)[:, [every.index(n) for n in self.names]]',
       'x = np.asarray(rows, dtype=float)[:, :len(self.names)]')
mutant('ILR4', 'known = [n for n in names() if n in grader.names]', 'known = list(grader.names)')
mutant('IE1', 'if self.grader and SPLITS_LOGIT in self.grader.names and self.head.splits is None:', 'if False:')
mutant('IE2', 'second = [float(row.max()) for row in', 'second = [float(row.min()) for row in')
mutant('IE4', '(vectors @ weights + bias)', '(vectors @ weights)')
# ---- session 29's round: the code changed in session 28 (`git diff fc60c30 bf788fd -- ec2audit`) ----
# intercept/media.py: gzip, bzip2, xz and tar read down to their text (`UNPACKERS`, `archive_text`, `_is_tar`)
mutant('QMD1', '(0, b"\\x1f\\x8b\\x08", "application/gzip")', '(0, b"\\x1f\\x8b\\x09", "application/gzip")')
mutant('QMD2', '"application/x-bzip2")', '"application/x-bzip")')
mutant('QMD3', '_TAR_MAGIC = 257', '_TAR_MAGIC = 256')
mutant('QMD4', '_TAR_LEAST, _TAR_CHARS = 2048, 340', '_TAR_LEAST, _TAR_CHARS = 16384, 340')
mutant('QMD5', 'if _is_tar(text, at):\n        return "application/x-tar"',
       'if False:\n        return "application/x-tar"')
mutant('QMD6', 'return chunk[_TAR_MAGIC - 255:_TAR_MAGIC - 250] == b"ustar"',
       'return chunk[_TAR_MAGIC - 254:_TAR_MAGIC - 249] == b"ustar"')
mutant('QMD7', 'if len(text) - at < _TAR_LEAST:\n        return False',
       'if len(text) - at > _TAR_LEAST:\n        return False')
mutant('QMD10', '"application/gzip": _compressed(lambda f: gzip.GzipFile(fileobj=f)),',
       '"application/gzip": _compressed(bz2.BZ2File),')
mutant('QMD11', 'content = member.read(budget + 1)', 'content = member.read(budget)')
mutant('QMD13', 'if media_type in UNPACKERS:', 'if media_type == "application/zip":')
mutant('QMD15', ".rsplit('/', 1)[-1]}", ".rsplit('/', 1)[0]}")
mutant('QMD16', 'READERS.update(dict.fromkeys(UNPACKERS, archive_text))',
       'READERS.update({"application/zip": archive_text})')
# intercept/shape.py: a Responses request continuing a stored prompt, a response or a conversation
mutant('QSH1', '_CONTINUED = frozenset({"prompt", "previous_response_id", "conversation"})',
       '_CONTINUED = frozenset({"previous_response_id", "conversation"})')
mutant('QSH3', 'if "input" in body or not _CONTINUED.intersection(body):', 'if not _CONTINUED.intersection(body):')
mutant('QSH4', 'if "input" in body or not _CONTINUED.intersection(body):',
       'if "input" in body and not _CONTINUED.intersection(body):')
# detect/views.py: a percent run's bytes as GB18030 where they read as Han
mutant('QVW1', 'decoded = raw.decode("gb18030")', 'decoded = raw.decode("latin-1")')
mutant('QVW2', 'return decoded if all(ch.isascii() or "\\u4e00" <= ch <= "\\u9fff" for ch in decoded) else None',
       'return decoded')
mutant('QVW4', 'return raw.decode("utf-8")', 'return raw.decode("utf-8", errors="replace")')
# detect/forms/dumps.py: words in hex, od's and hexdump's hex offsets
mutant('QDU1', '([0-9a-fA-F]{6,7})((?:   [^\\s\\\\]', '([0-7]{7})((?:   [^\\s\\\\]')
mutant('QDU2', '((?: {1,4}[0-9a-fA-F]{4})+|(?: {1,4}[0-9a-fA-F]{8})+) *$"', '((?: {1,4}[0-9a-fA-F]{4})+) *$"')
mutant('QDU3', 'return b"".join(bytes.fromhex(word)[::-1] for word in cells.split())',
       'return b"".join(bytes.fromhex(word) for word in cells.split())')
mutant('QDU4', 'for base in (8, 16):', 'for base in (8,):')
mutant('QDU6', 'yield from _dumps(text, _WORD_LINE, base, lambda m: words(m.group(2)))', 'pass')
mutant('QDU7', 'if _START not in text:\n            return\n',
       'if _START not in text:\n            return\n        yield from _dumps(text, _HEX_LINE, 16, _hex_bytes)\n')
# detect/forms/mime_bodies.py: a MIME body in its declared charset
mutant('QMB2', '(base64|quoted-printable)[ \\t]*\\r?$', '(base64)[ \\t]*\\r?$')
mutant('QMB3', '_ENCODING = re.compile(r"(?im)^', '_ENCODING = re.compile(r"(?m)^')
mutant('QMB4', 'block = text[text.rfind("\\n\\n", 0, m.start()) + 1:ends.start()]',
       'block = text[m.start():ends.start()]')
mutant('QMB5', 'boundary = _BOUNDARY.search(text, start)', 'boundary = None')
mutant('QMB7', 'if encoding == "base64" else', 'if encoding == "quoted-printable" else')
mutant('QMB8', 'return decoded if decoded.strip() and all(ch.isprintable() or ch in "\\r\\n\\t" for ch in decoded) el'
               'se None',
       'return decoded if decoded.strip() else None')
mutant('QMB10', '[cC](?i:harset=\\"?(', '[cC](?i:harset=(')
# detect/forms/lab_results.py: a test's name with its flag
mutant('QLR4', '_REACH = 30', '_REACH = 3')
mutant('QLR7', 'flag = (after["flag"] or after["sign"]) if after else before["flag"] if before else None',
       'flag = (after["flag"] or after["sign"]) if after else None')
mutant('QLR8', '\\s+(?:for\\s+)?(?:an?\\s+', '\\s+(?:an?\\s+')
mutant('QLR9', 'if self._results[i] == found:', 'if self._results[i][0] == found[0]:')
mutant('QLR12', 'sorted(_TEST_OF, key=len, reverse=True)', 'sorted(_TEST_OF, key=len)')
mutant('QLR14', '"high": ("high", "h", "elevated"', '"high": ("high", "elevated"')
mutant('QLR15', '"non-reactive", "elevated", "raised",', '"non-reactive", "elevated",')
# detect/forms/plate_parts.py: most of a plate near a word naming one
mutant('QPP1', 'r"plate|licen[cs]e|registration', 'r"licen[cs]e|registration')
mutant('QPP2', '_PLATE_UNIT = re.compile(r"plate|vehicle|', '_PLATE_UNIT = re.compile(r"plate|licen[cs]e|vehicle|')
mutant('QPP3', 'PIECE_SHARE * whole < shown < whole if short is None', '0.5 * whole < shown < whole if short is None')
mutant('QPP5', '_RUNS_ON = re.compile(r"[·・‧\\-.]?[0-9a-z]")', '_RUNS_ON = re.compile(r"[0-9a-z]")')
mutant('QPP6', ' or (start and text[start - 1] in PROVINCES)', '')
mutant('QPP7', '\n                or (word and text[start].isalpha() and _SYLLABLE.fullmatch(word[1]))', '')
mutant('QPP8', 'for spelling in (norm, *separator_forms(value)):', 'for spelling in (norm,):')
mutant('QPP9', 'and (bare[0].isascii() or bare[0] in PROVINCES)', 'and bare[0].isascii()')
mutant('QPP11', ' and _PLATE.search(text, max(0, start - TAIL_WINDOW), end + TAIL_WINDOW) \\', ' \\')
# detect/forms/host_labels.py: a host's first label alone
mutant('QHL2', ' and re.search(r"[\\d-]", label)', '')
mutant('QHL3', '(?:\\.[a-z0-9-]+)+\\.[a-z]{2,6}', '(?:\\.[a-z0-9-]+)*\\.[a-z]{2,6}')
mutant('QHL4', ' or text[start - 1:start] == "."', '')
mutant('QHL5', '\n                    or _NAME_CHAR.match(text, end)):', '):')
mutant('QHL6', '_NAME_CHAR = re.compile(r"[0-9a-z_-]|\\.[0-9a-z]")', '_NAME_CHAR = re.compile(r"[0-9a-z_-]")')
mutant('QHL7', '"partial.host", MOSTLY, 0.6)', '"partial.host", 0.3, 0.6)')
# detect/forms/truncated.py: a value cut off at an ellipsis
mutant('QTR1', '_HEAD = 8', '_HEAD = 12')
mutant('QTR2', '_SHORTEST = 12', '_SHORTEST = 20')
mutant('QTR4', 'if start and _TOKEN_CHAR.match(text[start - 1]):\n                continue',
       'if False:\n                continue')
mutant('QTR5', 'if shown < len(form) and text.startswith(_ELLIPSIS, start + shown):', 'if shown < len(form):')
mutant('QTR6', 'forms = [value, compact_form(value)] if _GROUPED.fullmatch(value) else [value]', 'forms = [value]')
mutant('QTR7', '\n            and any(c.isdigit() for c in f)]', ']')
mutant('QTR8', '(shown - prefix) / (len(form) - prefix))', 'shown / len(form))')
mutant('QTR9', '_ELLIPSIS = "..."', '_ELLIPSIS = "…"')
# detect/forms/addresses.py: `_other_flat`, a neighbour's flat in the block named near
mutant('QAD1', '_FLAT_LEAD = re.compile(r"[^\\d\\s一二三四五六七八九十]{2,}")',
       '_FLAT_LEAD = re.compile(r"[^\\d\\s一二三四五六七八九十]{5,}")')
mutant('QAD2', '_FLAT_WINDOW = 40', '_FLAT_WINDOW = 4')
mutant('QAD3', 'if numbers and not any(', 'if not any(')
mutant('QAD4', 'return at == end', 'return False')
mutant('QAD5', 'near = text[max(0, start - _FLAT_WINDOW):start] + "\\n" + text[end:end + _FLAT_WINDOW]',
       'near = text[end:end + _FLAT_WINDOW]')
# detect/forms/context_fragments.py: pieces of a value of five characters or more, a run before 开头
mutant('QCF1', '_SHORTEST = 5', '_SHORTEST = 7')
mutant('QCF2', 'PIECE_SHARE = 0.6', 'PIECE_SHARE = 0.5')
mutant('QCF3', 'pieced = cu.rules.fragment == "tail" or (cu.rules.fragment == "code" and _code(cu.forms[0]))',
       'pieced = cu.rules.fragment == "tail"')
mutant('QCF4', 'for k in range(3, len(bare)):', 'for k in range(4, len(bare)):')
mutant('QCF5', 'run = _RUN_BEFORE.search(text, max(0, c_start - TAIL_WINDOW), c_start) if k < 0 else None',
       'run = None')
mutant('QCF7', '(?<=[\\u2e80-\\u9fff]) ?([', '(?<=[\\u2e80-\\u9fff])([')
mutant('QCF8', 'if cu.rules.name == "credential":\n        return 0', 'if False:\n        return 0')
# detect/forms/conversions.py: µg/dL ↔ µg/L
mutant('QCV1', 'other = number / 10 if volume == "l" else number * 10',
       'other = number * 10 if volume == "l" else number / 10')
mutant('QCV2', 'for sep in ("", " ", ",")', 'for sep in ("", " ")')
mutant('QCV4', 'written = format(other.normalize(), "f")', 'written = str(other)')
mutant('QCV5', "/{'l' if volume == 'dl' else 'dl'}", '/{volume}')
# detect/forms/separators.py: a plate's province romanised
mutant('QSE1', '    if plate:  # a plate romanised', '    if False:  # a plate romanised')
mutant('QSE2', 'for form in (norm, *forms) for sep in (" ", "-")', 'for form in (norm, *forms) for sep in (" ",)')
mutant('QSE3', 'f"{name}{sep}{form[1:]}"', 'f"{name}{sep}{form}"')
# detect/value_checks.py: `another_unit`, a two-digit year before a near miss
mutant('QVC1', 'return bool(own) and not own & given and any(', 'return bool(own) and any(')
mutant('QVC2', 'n == m and u != v and _MEASURE.get(v) == _MEASURE[u]', 'n == m and u != v')
mutant('QVC4', '({_SPELLINGS})(?![a-z])', '({_SPELLINGS})')
mutant('QVC5', '"lb": "lb lbs pound pounds 磅"', '"lb": "lb lbs pound pounds"')
mutant('QVC6', 'if short_year_date(unit.value, text):  # before',
       'if short_year_date(unit.value, text) and not near_miss(unit.value, text):  # before')
# detect/learned_grader.py: another unit withheld, a diagnosis found not to fit
mutant('QLG1', 'if value_checks.another_unit(unit, text):\n        return "another unit"',
       'if False:\n        return "another unit"')
mutant('QLG2', 'meet (?:the )?(?:[\\w-]+ )?criteria', 'meet (?:the )?criteria')
mutant('QLG3', '|不符合[^，。,.;；]{0,20}诊断|诊断不成立', '|诊断不成立')
# metrics.py: a session scored against the units found in its calls, one a value; `token_total`
mutant('QMT1', 'if found and group in found:\n            continue', 'if False:\n            continue')
mutant('QMT3', 'best[kept] = max(best.get(kept, 0.0), grades.get(unit_id, 0.0))',
       'best[kept] = grades.get(unit_id, 0.0)')
mutant('QMT4', 'canonical = one_per_value({u.id: u for u in units}) if found else {}',
       'canonical = {u.id: u for u in units}')
mutant('QMT7', ' or r.billed_usd == 0]', ']')
mutant('QMT8', 'return sum(getattr(r, name) or 0 for r in counted) if len(counted) == len(calls) else None',
       'return sum(getattr(r, name) or 0 for r in counted)')
# audit.py: AuditResult.found
mutant('QAU1', 'named.add(payload.task_id)\n        else:\n            self.found',
       'named.add(payload.task_id)\n        elif False:\n            self.found')
mutant('QAU3', 'return metrics.unit_table(self.units, self.grades, self.tasks, self.found)',
       'return metrics.unit_table(self.units, self.grades, self.tasks)')
# logs/intercept_store.py: a blocked record's texts
mutant('QIS3', 'segments = to_payload(data, f"{path.name}#{number}", path, number, Counter()).segments',
       'segments = []')
mutant('QIS4', 'BLOCKED: True,', 'BLOCKED: False,')
mutant('QIS5', 'if not record.forwarded:  # blocked by the proxy', 'if False:  # blocked by the proxy')
# logs/base.py, litellm.py, langfuse.py: `record_key`, a call in two exports counted once
mutant('QBA2', 'return logged_key(kind, str(data["id"]), json.dumps(kept, sort_keys=True, default=str))',
       'return logged_key(kind, str(data["id"]))')
mutant('QLL1', 'if key := record_key(name, data):  # as read', 'if key := None:  # as read')
mutant('QLF1', 'if key := record_key(name, data):  # the observation', 'if key := None:  # the observation')
# logs/audit.py: a serial audit's parts read as written; one per value
mutant('QLA1', '0, serial=True)', '0, serial=False)')
mutant('QLA4', 'yield from (pl.read_parquet(s.path("findings")) for s in self.spilled if s.rows)',
       'yield from (pl.read_parquet(s.path("findings")) for s in self.spilled[1:] if s.rows)')
mutant('QLA5', 'if self._serial() and is_jsonl(path):', 'if self._serial() and not is_jsonl(path):')
mutant('QLA7', 'canonical = metrics.one_per_value(units) if found else {}',
       'canonical = {k: u for k, u in units.items()}')
mutant('QLA8', 'canonical = metrics.one_per_value(units)\n', 'canonical = dict(units)\n')
# run/episodes.py, run/scheduler.py, report/summary.py, report/terminal.py, console.py: tokens unknown, not 0
mutant('QEP1', '"cloud_usd": None if any(c is None for c in costs) else float(sum(c or 0.0 for c in costs)),',
       '"cloud_usd": float(sum(c or 0.0 for c in costs)),')
mutant('QEP2', '**{f"cloud_{k}": metrics.token_total(cloud, k) for k in',
       '**{f"cloud_{k}": sum(getattr(r, k) or 0 for r in cloud) for k in')
mutant('QSC1', 'return None if any(v is None for v in values) else sum(v or 0 for v in values)',
       'return sum(v or 0 for v in values)')
mutant('QSC2', 'tokens = _known_sum([s["cloud_input_tokens"], s["cloud_output_tokens"]])',
       'tokens = (s["cloud_input_tokens"] or 0) + (s["cloud_output_tokens"] or 0)')
mutant('QRS1', '**{k: pl.when(pl.col(k).null_count() == 0).then(pl.col(k).sum())', '**{k: pl.col(k).sum()')
mutant('QRT1', 'row["task_id"] or f"units in its calls', 'row["task_id"] or f"')
mutant('QCO2', 'return "unknown" if value is None else f"{value:,}"', 'return "0" if value is None else f"{value:,}"')
# cli/intercept.py: token totals in the stop summary and the sessions table; blocked requests scored
mutant('QCI1', 'for name in ("input_tokens", "output_tokens")]', 'for name in ("output_tokens", "input_tokens")]')
mutant('QCI2', 'tasks = [] if group in result.found else sorted(', 'tasks = sorted(')
mutant('QCI4', '**{f"cloud_{k}": metrics.token_total(sent, k) for k in',
       '**{f"cloud_{k}": sum(getattr(r, k) or 0 for r in sent) for k in')
mutant('QCI5', 'if record.task_id in result.unit_tasks:\n        result.score(empty)',
       'if True:\n        result.score(empty)')
mutant('QCI6', 'result.score(payload, {f.unit_id for f in cascade.scan(payload)})', 'result.score(payload)')
mutant('QCI8', '            if unread_body := _score_blocked(result, cascade, record, store):\n',
       '            if unread_body := None:\n')
mutant('QCI9', 'run_audit(payloads, units, cascade, result=result)', 'run_audit(payloads, units, cascade)')
# annotate/recognizers/finance.py: processors' test cards; icd.py: `statement`; discovered.py reads it
mutant('QFI1', ' and d not in TEST_CARDS', '')
mutant('QFI2', '"4242424242424242", ', '')
mutant('QFI5', '"6200000000000005", ', '')
mutant('QIC1', 'head, _, line = before[-_AROUND:].rpartition("\\n")', 'head, line = "", before[-_AROUND:]')
mutant('QIC3', 'return line + " " + after[:_AROUND].split("\\n", 1)[0]', 'return line + " " + after[:_AROUND]')
mutant('QIC4', 'not HEALTH_CONTEXT.search(statement(before, after))',
       'not HEALTH_CONTEXT.search(before + " " + after)')
mutant('QDI1', 'return None if HEALTH_CONTEXT.search(statement(before, after)) else',
       'return None if HEALTH_CONTEXT.search(before + " " + after) else')

# Session 30's rows: the code changed in session 29 (`git diff bf788fd 83aadfc -- ec2audit`).
# forms/bare_dumps.py: od -An's lines of one kind, sixteen bytes a whole line, text that prints
mutant('ZBD1', '_WHOLE_LINE = 16  # bytes', '_WHOLE_LINE = 32  # bytes')
mutant('ZBD2', 'raw = raw.rstrip(b"\\x00")', 'raw = raw')
mutant('ZBD3', 'return all(c.isprintable() or c in "\\t\\r\\n" for c in text)',
       'return all(c.isprintable() for c in text)')
mutant('ZBD4', '(n := line.match(text, end + 1))', '(n := line.match(text, end + 2))')
mutant('ZBD5', '"words": (re.compile(r"^((?: [0-9a-f]{4}){1,8})', '"words": (re.compile(r"^((?: [0-9a-f]{4}){1,7})')
mutant('ZBD6', '"long words": (re.compile(r"^((?: [0-9a-f]{8}){1,4})',
       '"long words": (re.compile(r"^((?: [0-9a-f]{8}){1,3})')
mutant('ZBD7', '(?=.*\\S)({_CELL}{{1,16}})', '(?=.*\\S)({_CELL}{{16}})')
mutant('ZBD8', 'lambda cells: bytes.fromhex(cells.replace(" ", ""))',
       'lambda cells: bytes.fromhex(cells.replace(" ", ""))[::-1]')
mutant('ZBD9', '[0-7]{2}|    )"', '[0-7]{2})"')
mutant('ZBD10', 'cue = rf"( [0-9a-f]{{4}}){{4}}|', 'cue = rf"( [0-9a-f]{{4}}){{9}}|')
# forms/bank_pairs.py: a bank's code and the account, the code alone by its word, another account beside it
mutant('ZBP1', '_PAIR_WINDOW = 120', '_PAIR_WINDOW = 12')
mutant('ZBP2', ' and sum(c.isdigit() for c in rest) == len(accounts[0])', '')
mutant('ZBP3', 're.compile(r"\\bsort")', 're.compile(r"\\bsortcode")')
mutant('ZBP4', 're.compile(r"routing|\\baba\\b|\\brtn\\b|transit")', 're.compile(r"\\baba\\b|\\brtn\\b|transit")')
mutant('ZBP5', 're.compile(r"开户行|开户银行|', 're.compile(r"开户银行|')
mutant('ZBP6', 'short = [code[2:]] if code.startswith("中国") and not code.startswith("中国银行") else []',
       'short = []')
mutant('ZBP7', 'code.replace("-", " "), re.sub(r"[- ]", "", code), ', 'code.replace("-", " "), ')
mutant('ZBP8', 'if (start and _RUNS_ON.match(text[start - 1])) or _RUNS_ON.match(text, end):',
       'if _RUNS_ON.match(text, end):')
mutant('ZBP9', '"forms.bank_pair", LITERAL, 0.9)', '"forms.bank_pair", FRAGMENT, 0.9)')
mutant('ZBP10', 'elif pair.shape.words.search(text, max(0, start - TAIL_WINDOW), start) and not _other_account(',
       'elif not _other_account(')
mutant('ZBP11', 'start) and not _other_account(\n                        text, start, end):', 'start):')
mutant('ZBP12', 'window = TAIL_WINDOW * 2', 'window = TAIL_WINDOW // 2')
mutant('ZBP13', 'return any(not (m.start() < end and start < m.end())',
       'return any((m.start() < end or start < m.end())')
mutant('ZBP14', r'\d(?: ?\d){5,}(?![\d,:/-]|\.\d)', r'\d(?: ?\d){8,}(?![\d,:/-]|\.\d)')
mutant('ZBP15', 're.compile(r"(?<!\\d)" + "[ -]?".join(digits)', 're.compile(r"(?<!\\d)" + "".join(digits)')
mutant('ZBP16', 'lo, hi = max(0, start - _PAIR_WINDOW), end + _PAIR_WINDOW', 'lo, hi = start, end + _PAIR_WINDOW')
# forms/id_parts.py: a region code and a birth date said apart, by a word naming an ID
mutant('ZIP1', '_PARTS_WINDOW = 60', '_PARTS_WINDOW = 6')
mutant('ZIP2', r'(?![\d.-]|[\s-]?\d)(?!{_REST_OF_ID})")', r'(?![\d.-]|[\s-]?\d)")')
mutant('ZIP3', r'_REST_OF_ID = r"[^\w\n]{1,3}\d{8}', r'_REST_OF_ID = r"[^\w\n]{2,3}\d{8}')
mutant('ZIP4', r'|\bresident\b|\bregion")', r'|\bresident\b")')
mutant('ZIP5', 're.compile(r"身份证|证件|', 're.compile(r"证件|')
mutant('ZIP6', 'if not date_bounded(text, start, end):', 'if False:')
mutant('ZIP7', 'if not _ID_WORDS.search(text, lo, hi):', 'if False:')
mutant('ZIP8', r'rf"(?<![\d.-]){parts[0]}', r'rf"{parts[0]}')
mutant('ZIP9', 'int(m.group(2)), int(m.group(3)), int(m.group(4))', 'int(m.group(2)), int(m.group(4)), int(m.group(3))')
# forms/hex_ips.py: an IPv4 address as eight hex digits, either byte order, standing alone
mutant('ZHX1', 'return list(dict.fromkeys(["".join(octets), "".join(reversed(octets))]))', 'return ["".join(octets)]')
mutant('ZHX2', 'return list(dict.fromkeys(["".join(octets), "".join(reversed(octets))]))',
       'return ["".join(reversed(octets))]')
mutant('ZHX3', 'octets = [f"{int(octet):02x}"', 'octets = [f"{int(octet):x}"')
mutant('ZHX4', 'or before == "0x")', ')')
mutant('ZHX5', ' and not text[end:end + 1].isalnum()', '')
mutant('ZHX6', '(not start or not text[start - 1].isalnum() or', '(True or')
# forms/truncated.py: prose cut off and said so (`_prose_form`, `_cut_said`)
mutant('ZTR1', '_PROSE_SHORTEST = 16', '_PROSE_SHORTEST = 60')
mutant('ZTR2', '(" " in value or is_cjk(value[0]))', '(" " in value)')
mutant('ZTR3', 'if shown < 12:', 'if shown < 30:')
mutant('ZTR4', 'if _CUT_SAID.match(text, at):', 'if _CUT_SAID.match(text, at + 1):')
mutant('ZTR5', 'return text.startswith(_ELLIPSIS, at) and prose[shown - 1].isalnum() and prose[shown].isalnum()',
       'return text.startswith(_ELLIPSIS, at)')
mutant('ZTR6', '|trimmed|已?截断|', '|trimmed|')
mutant('ZTR7', '''[\\"'`]?\\s{0,2}[(\\[<{]?''', '''[\\"'`]?[(\\[<{]?''')
mutant('ZTR8', 'index.add(prose[:_HEAD], KIND, i)', 'index.add(prose[:_HEAD + 40], KIND, i)')
mutant('ZTR9', 'yield self._hit(view, i, start, shown, shown / len(prose))',
       'yield self._hit(view, i, start, shown, shown / len(prose) / 2)')
# forms/concatenation.py: literals joined whatever their ends but blanks and quotes (`_joins`)
mutant('ZCC1', 'return not (last.isspace() or first.isspace() or last in "\\"\'\\\\" or first in "\\"\'\\\\")',
       'return last.isalnum() and first.isalnum()')
mutant('ZCC2', 'return not (last.isspace() or first.isspace() or', 'return not (first.isspace() or')
mutant('ZCC3', ' or first in "\\"\'\\\\")', ')')
mutant('ZCC4', '\\\\*["\'](?=[^\\s"\'\\\\])', '\\\\*["\'](?=[^\\W_])')
mutant('ZCC5', 'if start and _joins(text[start - 1], text[m.end()]) and opening and', 'if start and opening and')
# forms/code_point_lists.py: the arguments of String.fromCharCode(…)
mutant('ZCP1', '|(?<=fromCharCode\\()', '')
mutant('ZCP2', '(?:[ \\t]*(?=[\\])])|', '(?:[ \\t]*(?=\\])|')
mutant('ZCP3', '|(?<=fromCodePoint\\()', '')
# forms/sse_deltas.py: Ollama's NDJSON chunks
mutant('ZSD1', '"thinking", "delta", "response"})', '"thinking", "delta"})')
mutant('ZSD2', 'if \'"done":\' in text:', 'if \'"done": \' in text:')
mutant('ZSD3', 'yield from _joined(_CHUNKS.finditer(text), str.splitlines)',
       'yield from _joined(_CHUNKS.finditer(text), _DATA.findall)')
mutant('ZSD4', 'if "\\ndata:" in text or text.startswith("data:"):', 'if "\\ndata:" in text:')
# detect/denials.py: a name or a condition right after its denial
mutant('ZDN1', '_LOOK_BACK = 80', '_LOOK_BACK = 8')
mutant('ZDN2', r'_NOT_WHO = r"\b(?:is|was|are|were|be|been)\s+not|', r'_NOT_WHO = r"\b(?:is|was)\s+not|')
mutant('ZDN3', '|不是|并非|并不是"', '|并非|并不是"')
mutant('ZDN4', '|\\bno|否认|排除|', '|\\bno|排除|')
mutant('ZDN5', '"health": re.compile(f"(?:{_NOT_WHO}|{_NOT_HAD}){_FILLER}"',
       '"health": re.compile(f"(?:{_NOT_HAD}){_FILLER}"')
mutant('ZDN6', '_DENIALS = {"person_name":', '_DENIALS = {"contact":')
mutant('ZDN7', '_denied(before, denial, cu.forms[0].lower())', '_denied(before, denial, cu.forms[0])')
mutant('ZDN8', 'if word is not None and word.group(1).lower() in words:',
       'if word is not None and word.group(1) in words:')
mutant('ZDN9', 'elif before and is_cjk(before[-1]) and before[-1] in value:', 'elif False:')
mutant('ZDN10', r'mx|dr)\b\.?)*\s*$"', r'mx|dr)\b\.?)*$"')
mutant('ZDN11', '    if denial is None:\n        return False', '    if denial is None:\n        return True')
mutant('ZDN12', r'|\bwithout|\bno|', r'|\bwithout|')
# detect/tiers/__init__.py, intercept/redact.py, app.py, lanes.py: denials dropped by the audit, kept by the guard
mutant('ZTI1', 'if self.denials and source is not None and found:', 'if source is not None and found:')
mutant('ZTI2', 'return view.original if type(view) is TextView else None', 'return None')
mutant('ZRD1', 'return cls(Cascade(units, denials=not enforcing))', 'return cls(Cascade(units, denials=enforcing))')
mutant('ZAP1', 'Redactor.for_units(config.units, config.enforce != "observe")',
       'Redactor.for_units(config.units, config.enforce == "redact")')
mutant('ZLN1', 'start = (list(self.redactor.cascade.units), not self.redactor.cascade.denials)',
       'start = (list(self.redactor.cascade.units), self.redactor.cascade.denials)')
# detect/normalize.py: Chinese numerals read out in groups apart by commas
mutant('ZNM1', 'CJK_GROUP_SEPARATOR = rf"(?:{DIGIT_SEPARATOR}{{0,3}}|[,、] ?)"',
       'CJK_GROUP_SEPARATOR = rf"(?:{DIGIT_SEPARATOR}{{0,3}}|[、] ?)"')
mutant('ZNM2', '{{0,3}}|[,、] ?)"', '{{0,3}}|[,、])"')
mutant('ZNM3', 'm.group().translate(_CJK_RUN_READ)', 'm.group().translate(_CJK_DIGITS)')
# detect/exact.py: a phone after its calling code in one run of digits; the trunk 0 refused
mutant('ZEX1', 'if kind == ACCOUNT or not _after_calling_code(', 'if not _after_calling_code(')
mutant('ZEX2', 'indices = tuple(i for i in indices if self.units[i].rules.name == "contact")',
       'indices = tuple(i for i in indices)')
mutant('ZEX3', 'if end - start < 9 or text[start] == "0" or', 'if end - start < 7 or text[start] == "0" or')
mutant('ZEX4', 'if end - start < 9 or text[start] == "0" or', 'if end - start < 9 or')
mutant('ZEX5', ' or (end < len(text) and text[end].isdigit()):\n        return False  # a national',
       ':\n        return False  # a national')
mutant('ZEX6', 'return (k == 0 or not text[k - 1].isalnum()) and bool(', 'return bool(')
mutant('ZEX7', '_CALLING_CODE = re.compile(r"(?:00|011)?', '_CALLING_CODE = re.compile(r"(?:00)?')
mutant('ZEX8', '|8[1246]|', '|8[124]|')
mutant('ZEX9', '(?:00|011)?(?:1|7|', '(?:00|011)?(?:7|')
# detect/learned_grader.py, e5_judge.py: v13's description band (`may_describe`, `describe_threshold`)
mutant('ZLG1', 'resources.data("judges/local-judge/learned-grader-v14.json")',
       'resources.data("judges/local-judge/learned-grader-v13.json")')
mutant('ZLG2', 'if self.in_band(p, describes) and not held:', 'if self.in_band(p, describes):')
mutant('ZLG3', 'else Verdict(FRAGMENT, span, reading.start, reading.end)',
       'else Verdict(MOSTLY, span, reading.start, reading.end)')
mutant('ZLG4', 'return np.asarray(describes) & (np.asarray(p) >= self.describe_threshold)',
       'return np.asarray(describes) | (np.asarray(p) >= self.describe_threshold)')
mutant('ZLG5', 'return np.zeros(np.shape(p), dtype=bool)', 'return np.ones(np.shape(p), dtype=bool)')
mutant('ZLG6', 'r"[?？]|\\b(?:asks?|', 'r"\\b(?:asks?|')
mutant('ZLG7', '|问|吗|多少|', '|问|多少|')
mutant('ZLG8', '_DENIES = re.compile(r"\\b(?:not|never|', '_DENIES = re.compile(r"\\b(?:never|')
mutant('ZLG9', 'return (value_checks.names_the_entity(unit, text) and not _ASKS.search(text)',
       'return (not _ASKS.search(text)')
mutant('ZLG10', '            and not _DENIES.search(text))', '            )')
mutant('ZLG11', 'band = float(data["describe_threshold"]) if "describe_threshold" in data else None', 'band = None')
mutant('ZEJ1', 'bool(withheld(unit, read)), may_describe(unit, read))', 'bool(withheld(unit, read)), False)')
# logs/openai_log.py: an id logged again in the file; logs/base.py: `json_object`
mutant('ZOL1', '"id_reused": key in ids_read or ids in before}', '"id_reused": ids in before}')
mutant('ZBA1', 'return value if isinstance(value, dict) else {}', 'return value or {}')
# logs/intercept_store.py, intercept/store.py: a blocked (or forwarded) body the store kept unreadable, named
mutant('ZIS1', 'if isinstance(record.request, str):', 'if isinstance(record.request, bytes):')
mutant('ZIS2', "plural(len(record.request), 'character')", "plural(len(record.request) - 1, 'character')")
mutant('ZIS3', 'return reason if isinstance(record.request, dict) else "none on record"', 'return reason')
mutant('ZIS4', '                on_error(blocked_unread(record, why_unread(exc), path, number))\n', '')
mutant('ZIS5', 'UNREAD_BODY: segments is None})', 'UNREAD_BODY: False})')
mutant('ZIS6', "{record.episode or record.task_id or '?'}", "{record.task_id or '?'}")
mutant('ZIS7', 'request body not read ({unread_reason(record, why_unread(exc))})",',
       'request body not read ({why_unread(exc)})",')
mutant('ZST1', 'if column != "request":', 'if column != "response":')
mutant('ZST2', 'except ValueError as exc:  # a body kept truncated', 'except KeyError as exc:  # a body kept truncated')
# cli/intercept.py: a blocked body unread named and its episode a lower bound; a session's calls without a price
mutant('ZCI1', 'skipped.append(unread_body)', 'pass')
mutant('ZCI2', 'result.errors += skipped  # in', 'pass  # in')
mutant('ZCI3', 'result.unread.setdefault(result.score(empty), []).append(record.id)', 'result.score(empty)')
mutant('ZCI4', '        reason = why_unread(exc)\n', '        reason = "no body"\n')
mutant('ZCI5', '"cloud_calls_without_price": len(no_price),', '"cloud_calls_without_price": len(unpriced),')
mutant('ZCI6', '"cloud_unpriced_tier": next((t for t in no_price if t != DEFAULT_TIER), None)})',
       '"cloud_unpriced_tier": None})')
mutant('ZCI7', 'pricing = Pricing() if any(', 'pricing = None if any(')
mutant('ZCI8', 'return record.input_tokens is not None or record.output_tokens is not None',
       'return record.input_tokens is not None and record.output_tokens is not None')
mutant('ZCI9', 'found_scope(len(result.unread.get(group, [])))', 'found_scope(0)')
mutant('ZCI10', '({record.error or unread_reason(record, exc.reason)})', '({record.error or exc.reason})')
mutant('ZCI11', 'if not pricing.priced(r.model, tier)]', 'if pricing.priced(r.model, tier)]')
# console.py: "(no price)" for every unpriced call, "(N with no price)" for some
mutant('ZCO1', 'f" (no price{at})" if without_price == unpriced else', 'f" (no price{at})" if without_price else')
mutant('ZCO2', 'f" ({without_price} with no price{at})" if without_price else ""', '""')
# report/terminal.py, report/summary.py, logs/report.py, logs/audit.py: exposure shown as a bound; plurals
mutant('ZRT1', 'lower = row["task_id"] is None and row["group"] in result.unread', 'lower = False')
mutant('ZRT2', 'f"≤{row[\'exposure\']:.3f}" if lower else', 'f"{row[\'exposure\']:.3f}" if lower else')
mutant('ZRT3', 'f"≥{row[\'units\']}" if lower else str(row["units"])', 'str(row["units"])')
mutant('ZRT4', "{', at least' * lower}", '')
mutant('ZRS1', 'if AT_LEAST in (s["scored_against"] or "") and s["exposure"] is not None]',
       'if AT_LEAST in (s["scored_against"] or "") and False]')
mutant('ZRS2', "{s['exposure']:.3f} at most, over", "{s['exposure']:.3f}, over")
mutant('ZRS3', "{empty} of {plural(calls, 'call')} read carried", "{empty} of {calls} calls read carried")
mutant('ZLR1', 'if scored_against and scored_against.startswith(FOUND):', 'if scored_against == FOUND:')
mutant('ZLR2', 'return "units in its calls" + scored_against.removeprefix(FOUND)', 'return "units in its calls"')
mutant('ZLR3', 'if (s["scored_against"] or "").startswith(FOUND)]', 'if s["scored_against"] == FOUND]')
mutant('ZLR4', "{plural(info.get('units', 0), 'unit')} ≥0.7", "{info.get('units', 0)} units ≥0.7")
mutant('ZLR5', "({plural(cloud, 'cloud call')} audited)", "({cloud} cloud calls audited)")
mutant('ZLR6', "f\"{plural(cloud, 'cloud call')} not audited)\")", "f\"{cloud} cloud call(s) not audited)\")")
mutant('ZLA1', 'return FOUND if not unread else', 'return FOUND if True else')
mutant('ZLA2', 'if payload.meta.get(UNREAD_BODY) and group in log.found_in_calls:', 'if payload.meta.get(UNREAD_BODY):')
mutant('ZLA3', 'log.result.unread.setdefault(group, []).append(payload.id)', 'pass')
mutant('ZLA4', 'result.unread.setdefault(session, []).extend(ids)', 'pass')
mutant('ZRH1', "{plural(ep.calls, 'call')} without prompt content", "{ep.calls} calls without prompt content")
# files.py: `read_table` names a JSONL table's bad line
mutant('ZFI1', 'bad = _bad_line(path) if is_jsonl(path) and path.is_file() else None', 'bad = None')
mutant('ZFI2', 'for number, raw in enumerate(lines, start=1):', 'for number, raw in enumerate(lines):')
mutant('ZFI3', '            if not raw.strip():\n                continue\n', '')
mutant('ZFI4', 'if not isinstance(value, dict):', 'if isinstance(value, str):')
mutant('ZFI5', 'line=bad[0] if bad else None) from None', 'line=None) from None')
# annotate/agreement.py: a kana a token
mutant('ZAG1', '_CJK = "\\u3040-\\u30ff', '_CJK = "')
mutant('ZAG2', '\\uf900-\\ufaff\\uff66-\\uff9f"', '\\uf900-\\ufaff"')
mutant('ZAG3', '_TOKEN = re.compile(rf"[{_CJK}]|', '_TOKEN = re.compile(rf"[{_CJK}]+|')
# run/gateway.py: a model call bound by its episode's deadline
mutant('ZRG1', 'httpx.AsyncClient(timeout=state.call_timeout or self.timeout)',
       'httpx.AsyncClient(timeout=self.timeout)')
mutant('ZEP1', 'state.instruction, state.call_timeout = instruction, timeout', 'state.instruction = instruction')
# annotate/recognizers/finance.py: documentation's example IBANs are nobody's
mutant('ZFN1', '    if example_iban(value):\n        return False\n', '')
mutant('ZFN2', 'return re.sub(r"[\\s-]", "", value).upper() in TEST_IBANS',
       'return re.sub(r"[\\s-]", "", value) in TEST_IBANS')
mutant('ZFN3', 'return re.sub(r"[\\s-]", "", value).upper() in TEST_IBANS', 'return value.upper() in TEST_IBANS')
mutant('ZFN4', ' DE89370400440532013000', '')

# --- session 31: the code changed in session 30 (`git diff 83aadfc 4193c60 -- ec2audit`) ---
# detect/forms/keyed_fields.py: a record's keyed fields joined
mutant('XKF1', '_BETWEEN = re.compile(r"[\\s,;&]*")', '_BETWEEN = re.compile(r"[\\s,;&{}]*")')
mutant('XKF2', 'words = [w for w in re.split(r"[_.\\-]", _CAMEL.sub("_", key).lower()) if w]',
       'words = [w for w in re.split(r"[_.\\-]", key.lower()) if w]')
mutant('XKF3', 'if stem and (word in _DATE or', 'if (word in _DATE or')
mutant('XKF4', '    if _ADDRESS_END.search(flat):', '    if _ADDRESS.search(flat):')
mutant('XKF5', 'len(year) == 4 and year.isdigit()', 'len(year) >= 2 and year.isdigit()')
mutant('XKF6', '_MONTHS.get(month, _MONTHS.get(month[:3], 0))', '_MONTHS.get(month, 0)')
mutant('XKF7', 'return f"{year}-{m:02d}-{int(day):02d}"', 'return f"{year}-{m}-{day}"')
mutant('XKF8', 'yield *whole, f"{values[0]}…{values[1]}"', 'yield *whole, f"{values[0]}{values[1]}"')
mutant('XKF9', 'elif all(_JOINED.fullmatch(w) for w in words):', 'elif any(_JOINED.fullmatch(w) for w in words):')
mutant('XKF10', 'if j - i >= 2 and family is not None:', 'if j - i >= 3 and family is not None:')
mutant('XKF11', 'yield from _between(fields, "" if cjk else " ")', 'yield from _between(fields, "")')
mutant('XKF12', '    if run:\n        yield run\n', '')
mutant('XKF13', '    cue_lines = 8', '    cue_lines = 0')
# detect/forms/icd_codes.py: a diagnosis as its ICD-10 code
mutant('XIC1', 'stem = word[:-1] if len(word) > 5 else word', 'stem = word')
mutant('XIC2', 'for row in fits if len(row) == most}', 'for row in fits}')
mutant('XIC3', 'LITERAL if self._codes[i][text[start:end]] else MOSTLY', 'LITERAL')
mutant('XIC4', '            if not standalone(text, start, end):\n                continue\n', '')
mutant('XIC5', 'if relation_named(sentence) or not _CODE_NAMED.search(sentence):',
       'if not _CODE_NAMED.search(sentence):')
mutant('XIC6', 'if relation_named(sentence) or not _CODE_NAMED.search(sentence):', 'if relation_named(sentence):')
mutant('XIC7', '_CODE_NAMED = re.compile(r"\\bicd|\\bdx\\b|diagnos|诊断", re.IGNORECASE)',
       '_CODE_NAMED = re.compile(r"\\bicd|\\bdx\\b|diagnos|诊断")')
mutant('XIC8', '                if names_entity(sentence, *self._names[i]):', '                if True:')
mutant('XIC9', 'return [" ".join([code, *words]) for code, words in rows if len(words) >= 2]',
       'return [" ".join([code, *words]) for code, words in rows if len(words) >= 1]')
# detect/forms/acronyms.py: a condition's initials alone, where the entity is named
mutant('XAC1', 'whole = [w for w in kept[a:b] if w not in SMALL_WORDS] == every', 'whole = True')
mutant('XAC2', 'for b in range(a + _SHORTEST, min(len(kept), a + _LONGEST) + 1):',
       'for b in range(a + _SHORTEST, min(len(kept), a + _LONGEST)):')
mutant('XAC3', 'out[initials] = out.get(initials, False) or whole', 'out[initials] = whole')
mutant('XAC4', 'return words, entity if len(entity) >= 3 and any(c.isdigit() for c in entity) else None',
       'return words, entity if len(entity) >= 3 else None')
mutant('XAC5', 'rf"(?<![\\w-]){re.escape(entity)}(?![\\w-])"', 'rf"{re.escape(entity)}"')
mutant('XAC6', 'word = re.sub(r"[\'’]s$", "", token.group().lower())', 'word = token.group().lower()')
mutant('XAC7', 'after[:1].isupper() and not after.isupper()', 'after[:1].isupper()')
mutant('XAC8', 'return _RELATION.search(sentence.lower()) is not None', 'return _RELATION.search(sentence) is not None')
mutant('XAC9', 'return left[cut[-1] if cut else 0:]', 'return left[cut[0] if cut else 0:]')
mutant('XAC10', '+ right[:stop.start() if stop else len(right)]', '+ right')
mutant('XAC11', 'if not (standalone(text, start, end) and original[slice(*span)].isupper()',
       'if not (standalone(text, start, end)')
mutant('XAC12', 'and not re.match(r"-?\\d", text[end:end + 2]))', 'and not re.match(r"-\\d", text[end:end + 2]))')
mutant('XAC13', 'LITERAL if self._alone[i][text[start:end]] else MOSTLY', 'LITERAL')
mutant('XAC14', '            if relation_named(sentence):\n                continue\n', '')
mutant('XAC15', 're.compile(r"\\b(?:sibling|sister|brother|', 're.compile(r"\\b(?:sibling|brother|')
# detect/forms/near_verbatim.py: a name's particle kept; another number one word on
mutant('XNV1', 'short = {w for w in re.findall(r"[^\\W\\d_]+", form) if len(w) < 3}',
       'short = {w for w in re.findall(r"[^\\W\\d_]+", form) if len(w) < 2}')
mutant('XNV2', 'search(text, max(0, lo - 5), lo)) and m.group(1) in short:', 'search(text, max(0, lo - 5), lo)):')
mutant('XNV3', 'search(text, max(0, lo - 5), lo))', 'search(text, max(0, lo - 2), lo))')
mutant('XNV4', '    while short and (m := _PARTICLE_AFTER.match(text, hi)) and m.group(1) in short:\n'
       '        hi = m.end(1)\n',
       '')
mutant('XNV5', 'after = _LATIN_WORD.findall(text[end:end + _EDGE_WORD])[:2]',
       'after = _LATIN_WORD.findall(text[end:end + _EDGE_WORD])[:1]')
mutant('XNV6', 'after[0].isalpha() and after[1].isdigit() and after[1] != words[-1]',
       'after[0].isalpha() and after[1].isdigit()')
mutant('XNV7', 'for w, near in ((words[0], before[-1:]), (words[-1], after)))',
       'for w, near in ((words[0], []), (words[-1], after)))')
mutant('XNV8', 'for lo, hi in (_with_particles(text, form, *span)', 'for lo, hi in (tuple(span)')
# detect/forms/separators.py: a plate's dot and its province written out
mutant('XSE1', 'for name in (PROVINCES[norm[0]], PROVINCE_NAMES[norm[0]])]', 'for name in (PROVINCES[norm[0]],)]')
mutant('XSE2', 'groupings.append([norm[:2], norm[2:]])', 'groupings.append([norm[:1], norm[1:]])')
mutant('XSE3', 'plate = norm[:1] in PROVINCES and norm[1:2].isascii() and norm[1:2].isalpha()',
       'plate = norm[:1] in PROVINCES and norm[1:2].isascii()')
mutant('XSE4', 'hunan guangdong guangxi hainan', 'hunan guangxi guangdong hainan')
mutant('XSE5', 'beijing tianjin shanghai chongqing hebei shanxi neimenggu liaoning jilin heilongjiang jiangsu zhejiang',
       'beijing tianjin shanghai chongqing hebei shanxi neimenggu liaoning jilin heilongjiang jiangsu zhejang')
# detect/forms/spelled_out.py: Chinese numerals, case-folded lookups
mutant('XSO1', 'return _Item("".join(CJK_NUMERALS[c] for c in m.group("numerals")), False)',
       'return _Item(m.group("numerals"), False)')
mutant('XSO2', '|(?P<numerals>[{\'\'.join(CJK_NUMERALS)}]+))")', '|(?P<numerals>[{\'\'.join(CJK_NUMERALS)}]))")')
mutant('XSO3', '" ", m.group("named").casefold())', '" ", m.group("named"))')
mutant('XSO4', 'cue_least = _MIN_NAMED ', 'cue_least = _MIN_NAMED + 1 ')
mutant('XSO5', '" ", m.group("case").casefold())]', '" ", m.group("case"))]')
# detect/forms/truncated.py: a cut said as OCR's
mutant('XTR1', '|illegible|unreadable|smudged', '|unreadable|smudged')
mutant('XTR2', '|(?:字迹)?(?:模糊|不清)', '|字迹(?:模糊|不清)')
# detect/forms/unaccented.py: a name surname first
mutant('XUA1', 'for k in range(len(words) if len(words) <= _NAME_WORDS else 1):', 'for k in range(1):')
mutant('XUA2', '_APART = r"(?:, ?|[\\s_.-])"', '_APART = r"(?:,|[\\s_.-])"')
mutant('XUA3', '= " ".join(words[k:] + words[:k])', '= " ".join(words)')
# detect/compiled.py: a check character without its brackets
mutant('XCM1', r'_CHECK_CHARACTER = re.compile(r"([0-9a-z]{6,})\(([0-9a])\)")',
       r'_CHECK_CHARACTER = re.compile(r"([0-9a-z]{8,})\(([0-9a])\)")')
mutant('XCM2', r'_CHECK_CHARACTER = re.compile(r"([0-9a-z]{6,})\(([0-9a])\)")',
       r'_CHECK_CHARACTER = re.compile(r"([0-9a-z]{6,})\(([0-9])\)")')
mutant('XCM3', 'return alnum, m[1] + m[2]', 'return alnum, m[1]')
# detect/forms/bank_pairs.py: a long account alone
mutant('XBP1', '_LONG_ACCOUNT = 10 ', '_LONG_ACCOUNT = 19 ')
mutant('XBP2', 'if not (start and text[start - 1].isdigit()) and not text[end:end + 1].isdigit():',
       'if not text[end:end + 1].isdigit():')
mutant('XBP3', 'if not (start and text[start - 1].isdigit()) and not text[end:end + 1].isdigit():',
       'if not (start and text[start - 1].isdigit()):')
mutant('XBP4', '"forms.bank_account", MOSTLY, 0.8)', '"forms.bank_account", LITERAL, 0.8)')
# detect/cues.py and the forms' cue_least: a line with fewer cue matches is no cue line
mutant('XCU1', '            least = [1] * len(self.cued)\n', '            least = self._least\n')
mutant('XCU2', 'line = line[count >= least]', 'line = line[count > least]')
mutant('XCU3', '(starts, end - 1) - 1][cue] += 1', '(starts, end - 1) - 1][cue] = 1')
mutant('XLS1', '    cue_least = 2\n', '    cue_least = 3\n')
# detect/denials.py: an amount denied
mutant('XDN1', 'denial = _NOT_AMOUNT if cu.amount is not None else _DENIALS.get(cu.rules.name)',
       'denial = _DENIALS.get(cu.rules.name)')
mutant('XDN2', r'(?:[£$€¥￥]|\b[A-Z]{3}\s?|人民币)?\s*$"', r'\s*$"')
mutant('XDN3', 'r"|没有|并没有|不是|并非)', 'r"|并没有|不是|并非)')
mutant('XDN4', '(?:offer|pay|quote|propose|agree)(?:ed|d)?', '(?:offer|pay|quote|propose|agree)')
mutant('XDN5', 'key = (before, cu.rules.name, cu.forms[0])', 'key = (before, cu.rules.name, "")')
mutant('XDN6', r'|人民币)?\s*$",' + '\n                         re.IGNORECASE)', r'|人民币)?\s*$")')
mutant('XDN7', r'r"(?:\s+(?:been\s+)?(?:offer', r'r"(?:\s+(?:offer')
# detect/value_checks.py: numbers said in halves, digits joined by hyphens
mutant('XVC1', 'text = _HYPHENED_DIGITS.sub(lambda m:', 'text = text or _HYPHENED_DIGITS.sub(lambda m:')
mutant('XVC2', 'said(m[1]) + said(m[2]).zfill(2)', 'said(m[1]) + " " + said(m[2])')
mutant('XVC3', 'return _DIGIT_WORDS.get(words.lower()) or', 'return _DIGIT_WORDS.get(words) or')
mutant('XVC4', ' | {"oh": "0"}', '')
mutant('XVC5', r'rf"\b({_TWO_DIGIT_WORDS}|{_UNIT_WORD})[ -]({_TWO_DIGIT_WORDS})\b"',
       r'rf"\b({_TWO_DIGIT_WORDS})[ -]({_TWO_DIGIT_WORDS})\b"')
mutant('XVC6', '(?:[ -]" + _UNIT_WORD + ")?"', '(?:-" + _UNIT_WORD + ")?"')
mutant('XVC7', r'(?:-(?:{_UNIT_WORD}|oh|zero))+\b", re.I)', r'(?:-(?:{_UNIT_WORD}|oh|zero))\b", re.I)')
mutant('XVC8', r'[ -]({_TWO_DIGIT_WORDS})\b", re.I)', r'[ -]({_TWO_DIGIT_WORDS})\b")')
# annotate/recognizers/health.py and icd.py: figures of speech
mutant('XHE1', '_NOT_A_PATIENTS = ("tropical", "economic", "great", "financial")',
       '_NOT_A_PATIENTS = ("tropical", "great", "financial")')
mutant('XHE2', '(?:(?:good |bad |sheer )?luck|', '(?:luck|')
mutant('XHE3', r'|(?:1[89]|20)\d\d)\b", re.I)', r'|20\d\d)\b", re.I)')
mutant('XHE4', 'return bool(_FIGURE_BEFORE.search(before) or _FIGURE_AFTER.match(after))',
       'return bool(_FIGURE_BEFORE.search(before))')
mutant('XHE5', 'return bool(_FIGURE_BEFORE.search(before) or _FIGURE_AFTER.match(after))',
       'return bool(_FIGURE_AFTER.match(after))')
mutant('XHE6', '_NOT_AFTER = "".join(f"(?<!{w} )" for w in _NOT_A_PATIENTS)',
       '_NOT_AFTER = "".join(f"(?<!{w})" for w in _NOT_A_PATIENTS)')
mutant('XIR1', '                                                  or figure_of_speech(before, after)):', '):')
mutant('XIR2', 'lowered[end:end + _AROUND]\n', 'lowered[end + 1:end + _AROUND]\n')
# logs/discovered.py: a Chinese condition's holder
mutant('XDI1', '|(?:患有|患了|罹患|得了|', '|(?:患了|罹患|得了|')
mutant('XDI2', '[我你他她]们?有)', '[我你他]们?有)')
mutant('XDI3', '确诊(?:为|了)?|', '确诊|')
# annotate/workspace.py, cli/annotate.py: prelabel of `.`, its own outputs skipped
mutant('XWS1', '    named = root.resolve()  #', '    named = root  #')
mutant('XWS2', '        if path.resolve() in outputs:', '        if path in outputs:')
mutant('XWS3', '            skipped.append(Skipped(str(path), OWN_OUTPUT, tool=True))\n', '')
mutant('XWS4', 'return read_workspace(path, task_id, outputs)', 'return read_workspace(path, task_id)')
mutant('XWS5', 'd, s = read_workspace(task_dir / "workspace", task_dir.name, outputs)',
       'd, s = read_workspace(task_dir / "workspace", task_dir.name)')
mutant('XCA1', 'frozenset(p.resolve() for p in (out, units_out) if p)', 'frozenset(p.resolve() for p in (out,) if p)')
# cli/intercept.py, logs/audit.py: a blocked request is no call; where report finds the store
mutant('XCI1', '"session": group, "calls": len(sent),', '"session": group, "calls": len(mine),')
mutant('XCI2', 'store=pl.lit(str(store.absolute()), pl.String)', 'store=pl.lit(str(store), pl.String)')
mutant('XCI3', 'audit_summary(result) | {"blocked": len(blocked)}', 'audit_summary(result)')
mutant('XCI4', '    except UNREADABLE as exc:  # no body to read', '    except InputError as exc:  # no body to read')
mutant('XLA1', 'return None if file is None else str(Path(file).absolute())', 'return file')
# logs/intercept_store.py: a body of the wrong shape named
mutant('XIS1', 'UNREADABLE = (InputError, TypeError, AttributeError, ValueError)',
       'UNREADABLE = (InputError, AttributeError, ValueError)')
mutant('XIS2', 'return exc.reason if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}"',
       'return f"{type(exc).__name__}: {exc}"')
mutant('XIS3', 'return exc.reason if isinstance(exc, InputError) else f"{type(exc).__name__}: {exc}"',
       'return exc.reason if isinstance(exc, InputError) else str(exc)')
mutant('XIS4', '            except UNREADABLE as exc:\n                on_error(blocked_unread',
       '            except InputError as exc:\n                on_error(blocked_unread')
mutant('XIS5', '        except UNREADABLE as exc:\n            on_error(InputError(f"record',
       '        except InputError as exc:\n            on_error(InputError(f"record')
# report/summary.py: report finds the store `intercept audit` read
mutant('XRS1', 'stores, stores_gone = _logs_read(findings, first, "store")', 'stores, stores_gone = [], []')
mutant('XRS2', '            payloads |= _store_payloads(store, wanted)', '            pass')
mutant('XRS3', '                  for f in stores_gone]', '                  for f in []]')
# logs/report.py: a Phoenix span is a span
mutant('XLR1', 'RECORDS = {"otel-genai": "span", "phoenix-spans": "span"}', 'RECORDS = {"otel-genai": "span"}')
mutant('XLR2', 'NO_CONTENT = {"otel-genai": _CAPTURE_OFF, "phoenix-spans": _CAPTURE_OFF}',
       'NO_CONTENT = {"otel-genai": _CAPTURE_OFF}')
# logs/phoenix_spans.py: Phoenix's spans table
mutant('XPX1', 'return _SPAN_ID in pl.read_parquet_schema(path)', 'return True')
mutant('XPX2', 'in head and f\'"{_ATTRIBUTES}\'.encode() in head', 'in head')
mutant('XPX3', 'elif isinstance(value, list) and any(isinstance(v, dict) for v in value):',
       'elif isinstance(value, list):')
mutant('XPX4', '    elif value is not None:\n        out[key] = value', '    else:\n        out[key] = value')
mutant('XPX5', 'datetime.fromtimestamp(value / 1000, UTC)', 'datetime.fromtimestamp(value / 1000000, UTC)')
mutant('XPX6', '(value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()', 'value.isoformat()')
mutant('XPX7', 'if column.endswith("_messages")', 'if column.endswith("_message")')
mutant('XPX8', 'calls = sorted((s for s in spans if otel_genai.is_call(s["attributes"])), key=',
       'calls = (lambda c, key: c)((s for s in spans if otel_genai.is_call(s["attributes"])), key=')
mutant('XPX9', 'payload.meta["step"] = steps[payload.episode]', 'payload.meta["step"] = number')
mutant('XPX10', '"trace_id": row.get("context.trace_id")}', '"trace_id": row.get("trace_id")}')
mutant('XPX11', 'for row in document if isinstance(document, list) else [document]:', 'for row in [document]:')
mutant('XLI1', 'inspect_ai.ZIP_MAGIC, phoenix_spans.PARQUET_MAGIC)', 'inspect_ai.ZIP_MAGIC)')
# run/episodes.py: a blocked request is no call; unreadable forwarded records named
mutant('XEP1', '    cloud = [r for r in cloud if r.forwarded]\n', '')
mutant('XEP2', 'error="; ".join(state.errors + unread) or', 'error="; ".join(state.errors) or')
mutant('XEP3', 'except (TypeError, AttributeError, ValueError) as exc:  # a body of a shape',
       'except (AttributeError, ValueError) as exc:  # a body of a shape')
mutant('XEP4', '        if not r.forwarded:  # blocked: it reached no cloud\n            continue\n', '')
mutant('XEP5', 'reason = unread_reason(r, exc.reason)', 'reason = exc.reason')
# detect/forms/spaced_pieces.py: pieces one space apart
mutant('XSP1', '_LEAST = 6  # characters of the shortest', '_LEAST = 3  # characters of the shortest')
mutant('XSP2', '_LEAST_HAN = 4', '_LEAST_HAN = 2')
mutant('XSP3', '            if _LINE_BREAK.search(view.original[slice(*span)]):\n                continue\n', '')
mutant('XSP4', '\n                or (end < len(text) and text[end].isalnum() and text[end - 1].isalnum()))', ')')
mutant('XSP5', 'if not self.units[i].case_differs(_squeezed(view.original[slice(*span)])):', 'if True:')
mutant('XSP6', '_JOINTS = (\'\\\\" \\\\"\', \'" "\', "\' \'", " ")', '_JOINTS = (\'\\\\" \\\\"\', \'" "\', " ")')
mutant('XSP7', '    if "\\t" in text:\n        text = text.replace("\\t", " ")\n', '')
mutant('XSP8', 'whole = form.replace(" ", "")', 'whole = form')
# detect/forms/wide_bytes.py: the repr of UTF-16/32 bytes
mutant('XWB1', '_LEAST = 8  # bytes', '_LEAST = 32  # bytes')
mutant('XWB2', '    if len(raw) % 4:\n        return None\n', '')
mutant('XWB3', ' and raw[1::2].count(0) * 2 < len(raw) // 2:', ':')
mutant('XWB4', 'all(c.isprintable() or c in "\\t\\r\\n" for c in text)', 'all(c.isprintable() for c in text)')
mutant('XWB5', 'if "b\'" not in text and \'b"\' not in text:', 'if "b\'" not in text:')
mutant('XWB6', 'else "utf-32-be" if not raw[0::4].strip(b"\\x00") + raw[1::4].strip(b"\\x00") else None', 'else None')
# detect/forms/ascii_columns.py: hexdump -C's column
mutant('XAS1', '    cue_lines = 1', '    cue_lines = 0')
mutant('XAS2', r'(?:\|[ -~]{16}\|\r?\n)*\|', r'(?:\|[ -~]{16}\|\r?\n)?\|')
mutant('XAS3', 'line.rstrip("\\r")[1:-1]', 'line[1:-1]')
mutant('XAS4', r'\|[ -~]{1,16}\|\r?$", re.M)', r'\|[ -~]{1,16}\|\r?$")')
# detect/forms/turned_values.py: backwards and ROT13
mutant('XTV1', '_LEAST = 6\n', '_LEAST = 12\n')
mutant('XTV2', '_LEAST_HAN = 3', '_LEAST_HAN = 6')
mutant('XTV3', '    "rot13": lambda form: codecs.encode(form, "rot13"),\n', '')
mutant('XTV4', 'f"forms.{kind}", LITERAL, 0.8)', 'f"forms.{kind}", LITERAL, 0.3)')

if __name__ == "__main__":
    sys.exit(main())

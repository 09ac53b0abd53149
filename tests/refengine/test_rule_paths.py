"""What a Read or Edit rule's path specifier binds (rule_paths.py), as measured on 2.1.252 to 2.1.332."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.refengine.errors import NotModelled
from harness.refengine.rule_paths import Places, binds, edit_allow_binds

WORKDIR = Path("/run/work")
HOME = Path("/run/home")
PROJECT = Places(workdir=WORKDIR, home=HOME)


def places(*levels: str) -> Places:
    return Places(workdir=WORKDIR, home=HOME, levels=frozenset(levels))


def test_a_relative_folder_binds_it_at_any_depth() -> None:
    # rule-edit-path-glob, rule-edit-path-nested, rule-read-folder-deny-write
    assert binds("src/**", WORKDIR / "src" / "app.py", PROJECT)
    assert binds("src/**", WORKDIR / "lib" / "src" / "util.py", PROJECT)
    assert not binds("src/**", WORKDIR / "top.py", PROJECT)
    assert not binds("src/**", WORKDIR / "source" / "a.py", PROJECT)


def test_an_absolute_and_a_home_folder() -> None:
    # rule-read-path-absolute, rule-read-path-home
    assert binds("//x/shut/**", Path("/x/shut/a.txt"), PROJECT)
    assert not binds("//x/shut/**", Path("/x/open/a.txt"), PROJECT)
    assert binds("~/notes/**", HOME / "notes" / "a.txt", PROJECT)
    assert not binds("~/notes/**", HOME / "other" / "b.txt", PROJECT)
    assert not binds("~/notes/**", WORKDIR / "notes" / "a.txt", PROJECT)


def test_a_home_file_binds_that_file_only() -> None:
    # rule-read-home-file-deny: ~/notes.txt, not the project's notes.txt
    assert binds("~/notes.txt", HOME / "notes.txt", PROJECT)
    assert not binds("~/notes.txt", WORKDIR / "notes.txt", PROJECT)
    with pytest.raises(NotModelled):  # a folder of that name: not measured
        binds("~/notes.txt", HOME / "notes.txt" / "a", PROJECT)
    with pytest.raises(NotModelled):  # a skill's rule: no HOME known
        binds("~/notes.txt", HOME / "notes.txt", Places(workdir=WORKDIR))


def test_a_name_glob_binds_the_file_name_at_any_depth() -> None:
    # rule-read-glob-deny, rule-read-path-ask
    assert binds("*.txt", WORKDIR / "notes.txt", PROJECT)
    assert binds("*.txt", WORKDIR / "src" / "deep.txt", PROJECT)
    assert not binds("*.txt", WORKDIR / "src" / "code.py", PROJECT)
    with pytest.raises(NotModelled):  # outside the working copy
        binds("*.txt", Path("/etc/x.txt"), PROJECT)
    assert not binds("*.txt", Path("/etc/hostname"), PROJECT)  # no reading of the rule binds it
    assert not binds("src/**", Path("/etc/hostname"), PROJECT)
    with pytest.raises(NotModelled):
        binds("src/**", Path("/elsewhere/src/a.py"), PROJECT)
    with pytest.raises(NotModelled):  # a plain name without a glob
        binds("notes.txt", WORKDIR / "notes.txt", PROJECT)


def test_a_root_slash_folder_is_the_project_roots_in_project_and_local_settings() -> None:
    # rule-edit-path-root-slash, rule-edit-root-slash-local-allow
    for level in ("project", "local"):
        assert binds("/src/**", WORKDIR / "src" / "app.py", places(level))
        assert not binds("/src/**", WORKDIR / "lib" / "src" / "util.py", places(level))


def test_a_root_slash_folder_in_user_settings_leaves_the_project_alone() -> None:
    # rule-edit-root-slash-user
    assert not binds("/src/**", WORKDIR / "src" / "app.py", places("user"))
    with pytest.raises(NotModelled):  # read against HOME or ~/.claude: not measured
        binds("/src/**", HOME / "src" / "app.py", places("user"))
    with pytest.raises(NotModelled):
        binds("/src/**", WORKDIR / "src" / "app.py", places("flag"))


def test_a_relative_folder_rule_binds_the_folder_itself_an_anchored_one_is_not_modelled() -> None:
    # rule-path-levels-relative: a Read of lib under Read(lib/**) is refused
    assert binds("lib/**", WORKDIR / "lib", PROJECT)
    with pytest.raises(NotModelled):
        binds("//x/shut/**", Path("/x/shut"), PROJECT)


def test_relative_rules_of_every_settings_file_but_the_flags_are_read_against_the_working_copy() -> None:
    # rule-path-levels-relative: the user's Read(*.txt) binds the project's notes.txt, the local Edit(src/**) src/
    assert binds("*.txt", WORKDIR / "notes.txt", places("user"))
    assert binds("src/**", WORKDIR / "src" / "code.py", places("local"))
    with pytest.raises(NotModelled):
        binds("*.txt", WORKDIR / "notes.txt", places("flag"))


@pytest.mark.parametrize("rule", ["**", "src/**/*.py", "src/*.py", "**/*.env", "*.t?t", "src/"])
def test_unmeasured_forms_are_not_modelled(rule: str) -> None:
    with pytest.raises(NotModelled):
        binds(rule, WORKDIR / "src" / "app.py", PROJECT)


def test_a_dot_slash_folder_binds_it_at_any_depth_from_the_project_settings() -> None:
    # rule-read-dot-slash-folder-deny: ./secrets/** as secrets/**
    assert binds("./secrets/**", WORKDIR / "secrets" / "top.txt", PROJECT)
    assert binds("./secrets/**", WORKDIR / "sub" / "secrets" / "deep.txt", PROJECT)
    assert not binds("./secrets/**", WORKDIR / "notes.txt", PROJECT)
    with pytest.raises(NotModelled):  # from the user's settings: not measured
        binds("./secrets/**", WORKDIR / "secrets" / "top.txt", places("user"))
    with pytest.raises(NotModelled):  # ./ before ..: not measured
        binds("./../secrets/**", WORKDIR / "secrets" / "top.txt", PROJECT)


def test_a_dot_slash_folder_rule_can_bind_a_file_in_that_folder() -> None:
    # the Write of secrets/new.txt under Read(./secrets/**) is refused (rule-read-dot-slash-folder-deny)
    from harness.refengine.edit_rules import cannot_bind
    assert not cannot_bind("./secrets/**", WORKDIR / "secrets" / "new.txt")
    assert cannot_bind("./secrets/**", WORKDIR / "src" / "out.py")


def test_an_edit_allow_rule_binds_a_relative_folder_at_the_root_only() -> None:
    # rule-edit-allow-forms-trusted, -untrusted, -untrusted-swapped (a deny rule binds it at any depth, above)
    for specifier in ("lib/**", "./lib/**"):
        for level in ("project", "local"):
            assert edit_allow_binds(specifier, WORKDIR / "lib" / "new2.txt", places(level))
            assert not edit_allow_binds(specifier, WORKDIR / "sub" / "lib" / "new7.txt", places(level))
            assert not edit_allow_binds(specifier, WORKDIR / "notes.txt", places(level))
    assert edit_allow_binds("/src/**", WORKDIR / "src" / "new1.txt", places("local"))
    with pytest.raises(NotModelled):
        edit_allow_binds("lib/**", WORKDIR / "lib" / "x.txt", places("user"))
    with pytest.raises(NotModelled):  # a name glob below the root: not measured for allow rules
        edit_allow_binds("*.txt", WORKDIR / "src" / "x.txt", PROJECT)


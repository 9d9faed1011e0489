# Sourced by the scripts that drive mock-server with Python tools (python-clients.sh,
# console-test.sh, schemathesis.sh).

# ensure_venv DIR PACKAGE…: a Python venv in DIR holding PACKAGE…. Creates it when missing and
# pip-installs quietly; a venv that already holds exactly this list is left alone (no network).
ensure_venv() {
    local dir="$1"; shift
    local stamp="$dir/.mock-server-packages"
    if [[ -x "$dir/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$*" ]]; then
        return 0
    fi
    [[ -x "$dir/bin/python" ]] || python3 -m venv "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check "$@"
    printf '%s' "$*" > "$stamp"
}

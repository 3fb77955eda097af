# Shared by the scripts in build/: paths, Python discovery, pinned virtual environments, npm.
# Source it (". build/lib.sh"); it defines functions and variables and runs nothing else.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="$ROOT/dist"
VENV="$ROOT/.venv"                 # the project's environment: build + test tools, ikcore editable
TOOLS_VENV="$ROOT/.venv-tools"     # pyodide-build, which needs Python >= 3.12
BUILD="$ROOT/build"

# Messages go to stderr, in bold (errors in red) only when it is a terminal: a log file gets plain text.
# NO_COLOR (https://no-color.org) turns the colours off on a terminal too.
if [[ -t 2 && -z ${NO_COLOR:-} ]]; then
    say() { printf '\033[1m[ikcore]\033[0m %s\n' "$*" >&2; }
    die() { printf '\033[1;31m[ikcore] error:\033[0m %s\n' "$*" >&2; exit 1; }
else
    say() { printf '[ikcore] %s\n' "$*" >&2; }
    die() { printf '[ikcore] error: %s\n' "$*" >&2; exit 1; }
fi

# python_at_least EXE MAJOR MINOR: whether EXE runs and is at least that version, with venv and pip.
python_at_least() {
    "$1" -c "import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= ($2, $3) else 1)" \
        >/dev/null 2>&1
}

# find_python MAJOR MINOR: print the first interpreter >= MAJOR.MINOR, or nothing.
# Order: $IKCORE_PYTHON (or $IKCORE_TOOLS_PYTHON for >= 3.12), python3, versioned names on PATH,
# then interpreters that version managers keep off PATH (pyenv shims only answer for the active version).
find_python() {
    local major=$1 minor=$2 candidate
    local -a candidates=()
    if [[ $minor -ge 12 && -n ${IKCORE_TOOLS_PYTHON:-} ]]; then candidates+=("$IKCORE_TOOLS_PYTHON"); fi
    if [[ $minor -lt 12 && -n ${IKCORE_PYTHON:-} ]]; then candidates+=("$IKCORE_PYTHON"); fi
    candidates+=(python3)
    for v in 14 13 12 11; do
        [[ $v -ge $minor ]] && candidates+=("python3.$v")
    done
    local pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
    for v in 14 13 12 11; do
        [[ $v -ge $minor ]] || continue
        candidates+=(/usr/local/bin/python3.$v /usr/bin/python3.$v)
        for candidate in "$pyenv_root"/versions/3.$v.*/bin/python3.$v; do
            [[ -x $candidate ]] && candidates+=("$candidate")
        done
    done
    for candidate in "${candidates[@]}"; do
        if python_at_least "$candidate" "$major" "$minor"; then
            command -v "$candidate" 2>/dev/null || echo "$candidate"
            return 0
        fi
    done
    return 1
}

# file_digest FILE...: one sha256 over the named files' names and contents.
file_digest() {
    local f
    for f in "$@"; do printf '%s\n' "${f#"$ROOT"/}"; cat "$f"; done | sha256sum | cut -d' ' -f1
}

# quiet_pip PYTHON ARGS...: pip install, without the notices about configured index folders that
# do not exist on this machine.
quiet_pip() {
    local python=$1; shift
    "$python" -m pip install --quiet --disable-pip-version-check "$@" \
        2> >(grep -v "^WARNING: Location 'file:" >&2)
}

# ensure_venv DIR PYTHON REQUIREMENTS...: make DIR a virtual environment of PYTHON with the pinned
# requirements installed. Stamps (the interpreter's version, each requirement file's digest) skip all
# of it next time; a changed file is installed again on top, a changed interpreter starts afresh.
ensure_venv() {
    local dir=$1 python=$2; shift 2
    local base req stamp
    base="$("$python" -c 'import sys; print(sys.version)' | head -1)"
    if [[ ! -x $dir/bin/python || ! -f $dir/.ikcore-python || "$(cat "$dir/.ikcore-python")" != "$base" ]]; then
        say "setting up $(basename "$dir") with $("$python" --version 2>&1) ($python)"
        rm -rf "$dir"
        "$python" -m venv "$dir"
        printf '%s' "$base" > "$dir/.ikcore-python"
    fi
    for req in "$@"; do
        stamp="$dir/.ikcore-$(basename "$req")"
        if [[ ! -f $stamp || "$(cat "$stamp")" != "$(file_digest "$req")" ]]; then
            say "installing $(basename "$req") into $(basename "$dir")"
            quiet_pip "$dir/bin/python" -r "$req" || die "pip could not install $req into $dir"
            file_digest "$req" > "$stamp"
        fi
    done
}

# ensure_node_modules: npm ci from the committed lock, skipped while node_modules matches it.
ensure_node_modules() {
    command -v npm >/dev/null || die "npm not found: install Node.js 20+ with npm (e.g. apt-get install -y nodejs npm)"
    local stamp="$ROOT/node_modules/.ikcore-stamp"
    local want
    want="$(file_digest "$ROOT/package-lock.json") $(node --version)"
    if [[ -f $stamp && "$(cat "$stamp")" == "$want" ]]; then
        return 0
    fi
    say "npm ci (pinned by package-lock.json)"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed"
    printf '%s' "$want" > "$stamp"
}

# ensure_tools_venv: the pyodide-build environment; prints nothing and returns 1 without Python >= 3.12.
ensure_tools_venv() {
    local python
    python="$(find_python 3 12)" || return 1
    ensure_venv "$TOOLS_VENV" "$python" "$BUILD/requirements-tools.txt"
}

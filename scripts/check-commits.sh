#!/usr/bin/env bash
# Commit messages: "area: summary" in at most 72 characters, a blank line,
# then the why in a body (CONTRIBUTING.md).
#
#   ./scripts/check-commits.sh [RANGE]    the commits of RANGE (default: main..HEAD)
#   ./scripts/check-commits.sh FILE       one message (as a commit-msg hook:
#                                         ln -s ../../scripts/check-commits.sh .git/hooks/commit-msg)
#
# Prints each problem and exits 1, or exits 0.  Merge commits are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

problems=0

# check NAME MESSAGE: the rules, on one message.
check() {
	local name=$1 msg=$2 subject second body
	subject=$(printf '%s\n' "$msg" | sed -n 1p)
	second=$(printf '%s\n' "$msg" | sed -n 2p)
	body=$(printf '%s\n' "$msg" | sed -n '3,$p' | grep -v '^#' | tr -d '[:space:]' || true)
	if ! printf '%s' "$subject" | grep -Eq '^[a-z0-9][a-z0-9_./+-]*(, [a-z0-9][a-z0-9_./+-]*)*: [^ ]'; then
		echo "$name: the subject is not 'area: summary': $subject"
		problems=$((problems + 1))
	fi
	if [ "${#subject}" -gt 72 ]; then
		echo "$name: the subject has ${#subject} characters (at most 72): $subject"
		problems=$((problems + 1))
	fi
	if [ -n "$second" ] || [ -z "$body" ]; then
		echo "$name: no body after a blank line: say why the change is made"
		problems=$((problems + 1))
	fi
}

if [ $# -eq 1 ] && [ -f "$1" ]; then
	check "$1" "$(cat "$1")"
else
	range=${1:-main..HEAD}
	for c in $(git rev-list --no-merges "$range"); do
		check "$(git rev-parse --short "$c")" "$(git log -1 --format=%B "$c")"
	done
fi
[ "$problems" -eq 0 ]

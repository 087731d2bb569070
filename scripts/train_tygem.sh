#!/usr/bin/env bash
# Rebuilds the learned Go move table for 13x13 and larger boards
# (src/go/tygem_gammas.txt) from the Tygem games of yenw/computer-go-dataset.
#
#   git clone --depth 1 https://github.com/yenw/computer-go-dataset ../computer-go-dataset
#   scripts/train_tygem.sh ../computer-go-dataset src/go/tygem_gammas.txt
#
# Training games: the monthly archives TYGEM/Kifu/YYYY-MM.zip before 2016.
# Held out (every figure in the table's header is measured on them): the
# 2016 archives, and the strong programs' SGF games under AI/. The shipped
# table was made from the 73 pre-2016 archives in the snapshot the
# project's tools hold (606,436 games); it needs about 15 GB of memory and
# an hour on two cores. After Coulom's MM on 12,000 games the model gains
# latent vectors of 16 numbers (factorization Bradley-Terry), fitted by
# gradient descent on those games and 56,000 more, each seen once.
set -euo pipefail
data="${1:?path of a computer-go-dataset clone}"
out="${2:?path of the table to write}"
here="$(cd "$(dirname "$0")/.." && pwd)"
kifu="$data/TYGEM/Kifu"
train=()
held=()
for archive in "$kifu"/*.zip; do
  case "$(basename "$archive")" in
    2016-*|2017-*|2018-*|2019-*) held+=("$archive") ;;
    *) train+=("$archive") ;;
  esac
done
[ "${#train[@]}" -gt 0 ] && [ "${#held[@]}" -gt 0 ] || {
  echo "no training or held-out archives under $kifu" >&2; exit 2; }
held_list="$(IFS=,; echo "${held[*]}")"
cd "$here"
cargo run --release --example train_features -- \
  --note "Tygem 9d against 9d, yenw/computer-go-dataset TYGEM/Kifu: ${#train[@]} monthly archives before 2016; held out: its 2016 archives and its AI folder's SGF games" \
  --fit-games 12000 --harvest-games 120000 --min-count 40 --sweeps 6 \
  --factors 16 --factor-min-count 3500 --epochs 8 --rate 0.02 --decay 0.7 \
  --stream-games 56000 \
  --held-out "tygem2016=$held_list" --held-out "ai=$data/AI" --held-out-games 150 \
  "$out" "${train[@]}"

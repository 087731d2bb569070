#!/usr/bin/env bash
# Self-play match measuring the NoGo knowledge of src/search/nogo.rs.
#
# The knowledge is not wired into the search on this branch; this script
# makes a scratch worktree of HEAD, applies the wiring below (two params,
# nogo_prior and nogo_playout, read in uct.rs), and runs the ignored test
# `knowledge_match` of tests/nogo_solver.rs.
#
# Usage: scripts/nogo_match.sh "A params" "B params" [games] [ms per move] [size]
#   e.g. scripts/nogo_match.sh "nogo_playout=1" "" 40 200 9
set -euo pipefail
a_params=${1:-nogo_prior=1,nogo_playout=1}
b_params=${2:-}
games=${3:-40}
ms=${4:-200}
size=${5:-9}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
scratch=$(mktemp -d /tmp/nogo-match.XXXXXX)
git -C "$repo" worktree add --detach "$scratch" HEAD >/dev/null
trap 'git -C "$repo" worktree remove --force "$scratch"' EXIT
git -C "$scratch" apply <<'PATCH'
diff --git a/src/search/params.rs b/src/search/params.rs
index 9f368f4..95184de 100644
--- a/src/search/params.rs
+++ b/src/search/params.rs
@@ -28,6 +28,10 @@ pub struct SearchParams {
     pub threads: u32,
     /// Resign when the best move's win rate is below this.
     pub resign_threshold: f64,
+    /// NoGo: tree priors from the static evaluation (0 off, 1 on).
+    pub nogo_prior: u32,
+    /// NoGo: the knowledge playout policy (0 light, 1 nogo).
+    pub nogo_playout: u32,
     /// Never resign before this many moves have been played.
     pub resign_min_moves: usize,
 }
@@ -45,6 +49,8 @@ impl Default for SearchParams {
             max_tree_mb: 48,
             threads: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
             resign_threshold: 0.1,
+            nogo_prior: 0,
+            nogo_playout: 0,
             resign_min_moves: 20,
         }
     }
@@ -84,6 +90,8 @@ pub const PARAM_TABLE: &[(&str, &str)] = &[
     ("threads", "search threads"),
     ("resign_threshold", "resign below this win rate"),
     ("resign_min_moves", "never resign before this many moves"),
+    ("nogo_prior", "NoGo evaluation priors (0/1)"),
+    ("nogo_playout", "NoGo knowledge playouts (0/1)"),
 ];
 
 impl SearchParams {
@@ -117,6 +125,8 @@ impl SearchParams {
             "threads" => self.threads = parse::<u32>(name, value)?.clamp(1, 256),
             "resign_threshold" => self.resign_threshold = finite(parse(name, value)?)?.min(1.0),
             "resign_min_moves" => self.resign_min_moves = parse(name, value)?,
+            "nogo_prior" => self.nogo_prior = parse::<u32>(name, value)?.min(1),
+            "nogo_playout" => self.nogo_playout = parse::<u32>(name, value)?.min(1),
             _ => return Err(ParamError::Unknown(name.to_string())),
         }
         Ok(())
@@ -136,6 +146,8 @@ impl SearchParams {
             "threads" => self.threads.to_string(),
             "resign_threshold" => self.resign_threshold.to_string(),
             "resign_min_moves" => self.resign_min_moves.to_string(),
+            "nogo_prior" => self.nogo_prior.to_string(),
+            "nogo_playout" => self.nogo_playout.to_string(),
             _ => return None,
         })
     }
diff --git a/src/search/uct.rs b/src/search/uct.rs
index 4d801d2..424a5fa 100644
--- a/src/search/uct.rs
+++ b/src/search/uct.rs
@@ -129,14 +129,24 @@ impl Worker {
             None => {
                 let max_moves = 3 * self.scratch.geometry().area() as u32;
                 let trace = &mut self.trace;
-                light_playout_traced(
-                    &mut self.scratch,
-                    shared.komi,
-                    max_moves,
-                    &mut self.rng,
-                    |p, c| trace.push((p.0, c)),
-                )
-                .winner
+                if self.scratch.kind() == GameKind::NoGo && shared.params.nogo_playout != 0 {
+                    super::nogo::nogo_playout(
+                        &mut self.scratch,
+                        max_moves,
+                        &mut self.rng,
+                        |p, c| trace.push((p.0, c)),
+                    )
+                    .winner
+                } else {
+                    light_playout_traced(
+                        &mut self.scratch,
+                        shared.komi,
+                        max_moves,
+                        &mut self.rng,
+                        |p, c| trace.push((p.0, c)),
+                    )
+                    .winner
+                }
             }
         };
         self.back_up(shared, winner);
@@ -278,7 +288,11 @@ pub fn expand(shared: &Shared, node: NodeId, position: &Position) -> bool {
     };
     let open = position.empty_points().len() * 2 > position.geometry().area();
     for (k, &p) in moves.iter().enumerate() {
-        let (visits, wins) = prior(shared.params, position, p, open);
+        let (visits, wins) = if position.kind() == GameKind::NoGo && shared.params.nogo_prior != 0 {
+            super::nogo::prior(position, p, mover, shared.params.prior_even)
+        } else {
+            prior(shared.params, position, p, open)
+        };
         tree.node(block + k as NodeId)
             .init(Move::Play(p), visits, wins);
     }
PATCH
export CARGO_TARGET_DIR=${NOGO_MATCH_TARGET:-$repo/target/nogo-match}
(cd "$scratch" && cargo build --release --tests --quiet)
binary=$(cd "$scratch" && cargo test --release --test nogo_solver --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
NOGO_MATCH_A="$a_params" NOGO_MATCH_B="$b_params" NOGO_MATCH_GAMES="$games" \
    NOGO_MATCH_MS="$ms" NOGO_MATCH_SIZE="$size" \
    "$binary" --ignored knowledge_match --nocapture

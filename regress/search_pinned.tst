# Pinned search results: exact visits, principal variations and moves at a
# fixed seed with one thread and fixed playouts. Not a strength test: any
# change in what the search does (priors, playouts, UCT, tree reuse, the
# random sequence) shows here as a failure, so that a change in behaviour
# is always seen and reviewed. When the change is intended, regenerate the
# expectations and review the diff (see regress/README.md):
#   KOSUMI_REGENERATE=1 cargo test --release --test regress -- --ignored regenerate_pinned
# The suite sets everything it depends on itself.
kosumi-param seed 1
kosumi-param threads 1
kosumi-param playouts 300
kosumi-param ownership_playouts 100

# Go 9x9, empty board, Black to move: visits as GoGui's sboard shows them,
# then the principal variation and the win rate (same position: the tree
# grows by 300 playouts each time).
boardsize 9
clear_board
komi 7
10 kosumi-visits
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" 57 1 10 2 "" "" ""\n"" "" 35 19 8 20 8 "" ""\n"" "" "" 7 1 18 5 2 ""\n"" "" 5 "" 8 "" 59 "" ""\n"" "" 1 1 9 14 9 "" ""\n"" "" "" "" "" "" "" 1 ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [G4 F3 G3 F4 G5 F5]
30 kosumi-winrate
#? [black E4 win rate 51\.8% visits 138 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [D5]
50 genmove b
#? [C6]
60 lz-genmove_analyze w 0
#? [\ninfo move D5 visits 79 winrate 5190 prior 233 lcb 4105 order 0 pv D5 D6 E6 E7 F6 F5 info move G5 visits 51 winrate 5000 prior 207 lcb 3677 order 1 pv G5 F6 G6 F7 G7 info move G7 visits 42 winrate 5000 prior 207 lcb 3553 order 2 pv G7 G5 G4 F4 F3 info move D3 visits 38 winrate 5000 prior 207 lcb 3485 order 3 pv D3 D4 E3 C3 C5 info move G6 visits 30 winrate 5000 prior 207 lcb 3315 order 4 pv G6 F5 G5 F4 G4 info move D7 visits 27 winrate 3333 prior 233 lcb 1864 order 5 pv D7 C7 D6 D5 E6 F6 info move C7 visits 22 winrate 3636 prior 233 lcb 1973 order 6 pv C7 D7 D6 E6 D5 info move D6 visits 16 winrate 2813 prior 233 lcb 1213 order 7 pv D6 C7 D7 D5 info move B5 visits 10 winrate 3000 prior 156 lcb 1078 order 8 pv B5 C5 D4 E4 info move F5 visits 9 winrate 2222 prior 207 lcb 632 order 9 pv F5 E4 E6 info move E6 visits 9 winrate 2222 prior 233 lcb 632 order 10 pv E6 F5 F6 info move F3 visits 7 winrate 5714 prior 207 lcb 2505 order 11 pv F3 G4 info move E4 visits 6 winrate 3333 prior 207 lcb 968 order 12 pv E4 F5 info move C5 visits 6 winrate 3333 prior 233 lcb 968 order 13 pv C5 D6 D5 info move F7 visits 5 winrate 4000 prior 207 lcb 1176 order 14 pv F7 G7 info move G3 visits 5 winrate 2000 prior 207 lcb 362 order 15 pv G3 E3 C3 info move G4 visits 5 winrate 2000 prior 207 lcb 362 order 16 pv G4 G3 info move F6 visits 3 winrate 3333 prior 207 lcb 615 order 17 pv F6 F5 info move E7 visits 2 winrate 5000 prior 207 lcb 945 order 18 pv E7 info move F4 visits 1 winrate 0 prior 207 lcb 0 order 19 pv F4\nplay D5]
70 kosumi-pv
#? [E4 D6 C7 D7 E7 E6 F5]

# NoGo 7x7.
kosumi-game nogo
boardsize 7
80 kosumi-visits
#? [\n"" 8 "" "" 7 13 22\n"" "" "" 7 "" "" 14\n27 31 "" 9 "" "" ""\n"" "" "" "" "" "" ""\n5 "" 4 36 8 13 3\n23 "" 12 "" "" "" ""\n1 "" 24 5 6 13 9]
90 genmove b
#? [F1]
100 kosumi-pv
#? [D1 G2 A4 D5]

# Go 13x13 with a smaller budget.
kosumi-game go
boardsize 13
kosumi-param playouts 150
110 kosumi-winrate
#? [black L10 win rate 54\.8% visits 31 playouts 150]
120 kosumi-pv w
#? [K5 L6 L5 K6 J5]

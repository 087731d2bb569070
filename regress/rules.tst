# Rules corner cases on positions from sgf/ (gogui-regress format).
# Run with: cargo test --test regress (or gogui-regress -long "kosumi --seed 1 --playouts 500" rules.tst)

# Ko: Black has just taken; White may not retake at E5 at once.
loadsgf sgf/ko_just_taken.sgf
10 gogui-rules_side_to_move
#? [white]
20 gogui-rules_legal_moves
#? [!(.* )?E5( .*)?]
# After a threat and its answer, the retake is legal.
play w a1
play b a2
30 gogui-rules_legal_moves
#? [(.* )?E5( .*)?]

# Suicide: White A1 is illegal; Black A1 captures two stones.
loadsgf sgf/corner_capture.sgf
40 gogui-rules_legal_moves
#? [!(.* )?A1( .*)?]
50 gogui-rules_side_to_move
#? [white]
# Black A1 captures, so it is legal.
play w pass
60 gogui-rules_legal_moves
#? [A1 .*]

# A record with captures and a pass; the position before move 6.
loadsgf sgf/capture_game.sgf
70 final_score
#? [B\+25]
# White A4 and B5 would be suicide.
80 gogui-rules_legal_moves
#? [!(.* )?(A4|B5)( .*)?]
loadsgf sgf/capture_game.sgf 6
90 gogui-rules_side_to_move
#? [white]
# Black has just taken one stone at A4 with one: retaking is ko.
100 gogui-rules_legal_moves
#? [!(.* )?A4( .*)?]

# Dead stones: scored for the other side, captured before passing.
loadsgf sgf/dead_stone_7x7.sgf
110 final_score
#? [B\+6\.5]
120 final_status_list dead
#? [B1]
130 kgs-genmove_cleanup b
#? [A1]
140 kgs-genmove_cleanup w
#? [PASS]

# Handicap from AB and HA: White moves first, printsgf keeps HA.
loadsgf sgf/handicap_3.sgf
150 gogui-rules_side_to_move
#? [white]
160 printsgf
#? [.*HA\[3\].*]

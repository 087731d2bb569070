# NoGo rules and endgame on a 3x3 board (composed positions).
kosumi-game nogo
boardsize 3
play b b2
play w a1
play b b1
play w a2
10 gogui-rules_legal_moves
#? [C1 C2 B3 C3]
play b c2
# White may not play C1 (suicide) nor capture.
20 gogui-rules_legal_moves
#? [A3 B3 C3]
play w c3
# Black's only move.
30 reg_genmove b
#? [C1]
play b c1
play w a3
# Black has no legal move: resign, White wins.
40 gogui-rules_legal_moves
#? []
50 reg_genmove b
#? [resign]
60 gogui-rules_final_result
#? [White wins: black has no legal move\.]
70 final_score
#? [W\+]
# Never a pass in NoGo.
80 genmove w
#? [!PASS]
# A 9x9 endgame in three independent parts (10, 8 and 1 live points, 19
# legal for either side): the sum of the parts' game values is a White
# win, and the move it gives is one of the solver's winning moves.
loadsgf sgf/nogo_three_parts.sgf
90 kosumi-regions w
#? [won (B2|A4|J4|B5|H5|J5|B6|J6|A7|B7|C7|G7|J7|G8|H8) .*]
100 reg_genmove w
#? [B2|A4|J4|B5|H5|J5|B6|J6|A7|B7|C7|G7|J7|G8|H8]

# Life and death of eye shapes (gogui-regress format; composed for this
# project): vital points of straight and bent three, pyramid four, bulky
# and crossed five and rabbity six (the side to move kills or lives, found
# with genmove), the status of square, straight and bent four, nakade of
# three to six points with stones inside, false eyes, seki with and without
# eyes, a group that needs a ko, and two-eye groups with dead stones inside.
# Expected answers by Go knowledge, cross-checked with GNU Go 3.8
# (--chinese-rules); a trailing * marks Kosumi's known failures.
# Run with: cargo test --release --test regress
# (or gogui-regress -long "kosumi --seed 1 --playouts 500" life_shapes.tst)
# The suite fixes what its answers depend on itself:
kosumi-param seed 1
kosumi-param threads 1
kosumi-param playouts 500

# Straight three on the edge (B1 C1 D1), no outside liberties: the middle point
# kills for Black and makes two eyes for White.
loadsgf sgf/life_straight_three.sgf
10 genmove b
#? [C1]
loadsgf sgf/life_straight_three.sgf
20 genmove w
#? [C1]

# Bent three in the corner (A2 A1 B1): the bend A1 is the vital point for both;
# White's A1 stone and the wall share the two eyes.
loadsgf sgf/life_bent_three.sgf
30 genmove b
#? [A1]
loadsgf sgf/life_bent_three.sgf
40 genmove w
#? [A1]

# Square four in the corner (A1 B1 A2 B2) is dead whoever moves: any White
# move leaves a bent three whose vital point Black takes.
loadsgf sgf/life_square_four.sgf
50 final_status_list dead
#? [C1 C2 A3 B3 C3]
loadsgf sgf/life_square_four.sgf
60 final_score
#? [B\+1\.5]

# Straight four on the edge (B1-E1) lives with Black to move: Black takes one
# middle point, White the other. Nothing on the board is dead.
loadsgf sgf/life_straight_four.sgf
70 final_status_list dead
#? []
loadsgf sgf/life_straight_four.sgf
80 final_score
#? [W\+22\.5]

# Bent four on the edge, away from the corner (B1 C1 D1 D2): two middle points
# (C1, D1), miai, so White lives with Black to move.
loadsgf sgf/life_bent_four.sgf
90 final_status_list dead
#? []
loadsgf sgf/life_bent_four.sgf
100 final_score
#? [W\+24\.5]

# Pyramid four (B1 C1 D1 C2): the centre C1 kills or makes three eyes; any
# other White move leaves a bent three or a two-point eye.
loadsgf sgf/life_pyramid_four.sgf
110 genmove b
#? [C1]
loadsgf sgf/life_pyramid_four.sgf
120 genmove w
#? [C1]

# Bulky five (B1 C1 D1 B2 C2): Black kills only at the vital point C1. White
# lives at C1 (D1 and a bent three), C2 or B1 (a bent or zigzag four).
loadsgf sgf/life_bulky_five.sgf
130 genmove b
#? [C1]
loadsgf sgf/life_bulky_five.sgf
140 genmove w
#? [C1|C2|B1]

# Crossed five (C1 B2 C2 D2 C3): the centre C2 is the only killing move and the
# only living move (four one-point eyes).
loadsgf sgf/life_crossed_five.sgf
150 genmove b
#? [C2]
loadsgf sgf/life_crossed_five.sgf
160 genmove w
#? [C2]

# Rabbity six (C1 D1 B2 C2 D2 C3): Black kills only at the centre C2; any other
# Black move lets White take C2 with three eyes.
loadsgf sgf/life_rabbity_six.sgf
170 genmove b
#? [C2]

# Nakade of three: a Black stone on the vital point of White's bent three in the
# corner; White to move cannot make two eyes, the Black stone lives.
loadsgf sgf/life_nakade_bent_three.sgf
180 final_status_list dead
#? [C1 B2 C2 A3 B3]
loadsgf sgf/life_nakade_bent_three.sgf
190 final_score
#? [B\+1\.5]

# Nakade of four: two Black stones (C1 C2) in White's pyramid four. White cannot
# approach (B1 or D1 is self-atari); Black can throw in at B1 and take the bent
# three's vital point after the capture, so this is no seki: White is dead.
loadsgf sgf/life_nakade_pyramid.sgf
200 final_status_list dead
#? [A1 E1 A2 B2 D2 E2 B3 C3 D3]
loadsgf sgf/life_nakade_pyramid.sgf
210 final_score
#? [B\+1\.5]

# Nakade of five: three Black stones (C1 B2 C2) in White's bulky five; Black can
# fill B1 to be taken as a square four. White is dead, the Black stones live.
loadsgf sgf/life_nakade_bulky.sgf
220 final_status_list dead
#? [A1 E1 A2 D2 E2 A3 B3 C3 D3]
loadsgf sgf/life_nakade_bulky.sgf
230 final_score
#? [B\+1\.5]

# Nakade of five: a Black stone on the centre of White's crossed five; White has
# four liberties to fill around it and never two eyes.
loadsgf sgf/life_nakade_crossed.sgf
240 final_status_list dead
#? [A1 B1 D1 E1 A2 E2 A3 B3 D3 E3 B4 C4 D4]
loadsgf sgf/life_nakade_crossed.sgf
250 final_score
#? [B\+1\.5]

# Nakade of six: a Black stone on the vital point of White's rabbity six; White
# to move cannot make two eyes.
loadsgf sgf/life_nakade_rabbity.sgf
260 final_status_list dead
#? [A1 B1 E1 A2 E2 A3 B3 D3 E3 B4 C4 D4]
loadsgf sgf/life_nakade_rabbity.sgf
270 final_score
#? [B\+1\.5]

# Straight three with a Black stone at its end (B1): Black C1 leaves a two-stone
# nakade; White C1 captures B1 and has two eyes. D1 is wrong for both.
loadsgf sgf/life_nakade_three_stone.sgf
280 genmove b
#? [C1]
loadsgf sgf/life_nakade_three_stone.sgf
290 genmove w
#? [C1]

# One real eye (A1) and one false eye (E1, Black at F2): F1 G1 are in atari and
# connecting at E1 leaves a single eye. Dead whoever moves.
loadsgf sgf/life_false_eye_dead.sgf
300 final_status_list dead
#? [B1 C1 D1 A2 B2 C2 D2 E2\sF1 G1]
loadsgf sgf/life_false_eye_dead.sgf
310 final_score
#? [B\+1\.5]

# The diagonal F2 decides whether E1 is a real eye: White F2 lives with A1 and
# E1; Black F2 makes E1 false (F1 in atari) and White dies.
loadsgf sgf/life_false_eye_key.sgf
320 genmove b
#? [F2]
loadsgf sgf/life_false_eye_key.sgf
330 genmove w
#? [F2]

# Seki without eyes: White A2-F2 F1 and Black B1-D1 share the liberties A1 and E1.
# Whoever fills one is captured (a straight four for the capturer): neither moves
# there, nothing is dead, A1 and E1 are neutral.
loadsgf sgf/life_seki_no_eyes.sgf
340 final_status_list dead
#? []
loadsgf sgf/life_seki_no_eyes.sgf
350 final_score
#? [W\+14\.5]
loadsgf sgf/life_seki_no_eyes.sgf
360 genmove b
#? [!A1|E1]
loadsgf sgf/life_seki_no_eyes.sgf
370 genmove w
#? [!A1|E1]

# White has real eyes at A1 and F1; the Black stone at C1 inside its two-point
# space D1 is dead.
loadsgf sgf/life_two_eyes_stone.sgf
380 final_status_list dead
#? [C1]
loadsgf sgf/life_two_eyes_stone.sgf
390 final_score
#? [W\+26\.5]

# Straight three on the top edge, colours swapped: Black's eye space B9 C9 D9;
# C9 kills for White and lives for Black.
loadsgf sgf/life_straight_three_top_b.sgf
400 genmove w
#? [C9]
loadsgf sgf/life_straight_three_top_b.sgf
410 genmove b
#? [C9]

# Bent three in the corner on 7x7 (A2 A1 B1): A1 for both.
loadsgf sgf/life_bent_three_7x7.sgf
420 genmove b
#? [A1]
loadsgf sgf/life_bent_three_7x7.sgf
430 genmove w
#? [A1]

# Straight three on the edge on 7x7 (B1 C1 D1): C1 for both.
loadsgf sgf/life_straight_three_7x7.sgf
440 genmove w
#? [C1]
loadsgf sgf/life_straight_three_7x7.sgf
450 genmove b
#? [C1]

# Pyramid four in the bottom-right of 13x13 (M1 L1 K1 L2): the centre L1.
loadsgf sgf/life_pyramid_four_13.sgf
460 genmove b
#? [L1]
loadsgf sgf/life_pyramid_four_13.sgf
470 genmove w
#? [L1]

# Bulky five, colours swapped, 13x13: Black's space B1 C1 D1 B2 C2; White kills
# only at C1. (Before the table learned from human games rated 13x13 moves,
# Kosumi's White played elsewhere, J3.)
loadsgf sgf/life_bulky_five_13.sgf
480 genmove w
#? [C1]

# Crossed five on 19x19 (C1 B2 C2 D2 C3): Black kills at the centre C2.
loadsgf sgf/life_crossed_five_19.sgf
490 genmove b
#? [C2]

# Rabbity six in the bottom-right of 13x13, colours swapped (L1 K1 M2 L2 K2 L3):
# White kills only at the centre L2.
loadsgf sgf/life_rabbity_six_13.sgf
500 genmove w
#? [L2]

# Straight four on the top edge of 13x13 (B13-E13), Black to move: alive.
loadsgf sgf/life_straight_four_13.sgf
510 final_status_list dead
#? []
loadsgf sgf/life_straight_four_13.sgf
520 final_score
#? [B\+33\.5]

# Square four in the corner on 19x19, colours swapped (Black's A1 B1 A2 B2),
# Black to move: dead.
loadsgf sgf/life_square_four_19.sgf
530 final_status_list dead
#? [C1 C2 A3 B3 C3]
loadsgf sgf/life_square_four_19.sgf
540 final_score
#? [W\+64\.5]

# The false-eye diagonal on the top edge of 13x13, colours swapped: F12 makes
# Black's E13 real (Black lives) or false (White kills).
loadsgf sgf/life_false_eye_key_13.sgf
550 genmove w
#? [F12]
loadsgf sgf/life_false_eye_key_13.sgf
560 genmove b
#? [F12]

# Seki without eyes in the bottom-right of 13x13 (shared liberties N1 and J1):
# nothing dead, Black must not fill either liberty.
loadsgf sgf/life_seki_no_eyes_13.sgf
570 final_status_list dead
#? []
loadsgf sgf/life_seki_no_eyes_13.sgf
580 final_score
#? [B\+41\.5]
loadsgf sgf/life_seki_no_eyes_13.sgf
590 genmove b
#? [!N1|J1]

# Nakade of five on 19x19 (bottom-right): three Black stones in White's bulky
# five; White is dead.
loadsgf sgf/life_nakade_bulky_19.sgf
600 final_status_list dead
#? [P1 T1 P2 Q2 T2 Q3 R3 S3 T3]
loadsgf sgf/life_nakade_bulky_19.sgf
610 final_score
#? [B\+49\.5]

# Colours swapped on the top edge of 13x13: Black's eyes A13 and F13 are real;
# the White stone C13 in Black's two-point space is dead.
loadsgf sgf/life_two_eyes_stone_13.sgf
620 final_status_list dead
#? [C13]
loadsgf sgf/life_two_eyes_stone_13.sgf
630 final_score
#? [W\+44\.5]

# Straight three with a Black stone at its end, top-right of 13x13 (Black on
# M13, empty L13 K13): the middle point L13 for both.
loadsgf sgf/life_nakade_three_stone_13.sgf
640 genmove b
#? [L13]
loadsgf sgf/life_nakade_three_stone_13.sgf
650 genmove w
#? [L13]

# Bent shape in the corner (A2 A1 B1 C1) with no outside liberties: White to
# move lives at B1 (eyes A1-A2 and C1) or A1; Black's best is B1, after which
# White A1 makes a ko (Black takes at A2): White lives only by ko. This is the
# bent four in the corner: played out under area scoring it stays a ko that
# Black starts when it suits Black, so White dies unless it wins that ko.
loadsgf sgf/life_ko_corner.sgf
660 genmove b
#? [B1]
loadsgf sgf/life_ko_corner.sgf
670 genmove w
#? [A1|B1]

# The same corner after Black B1 and White A1: Black starts the ko by taking A1
# at A2 (C1 is illegal for Black); White to move wins it outright with C1,
# capturing B1 for eyes at A2 and B1.
loadsgf sgf/life_ko_corner_taken.sgf
680 genmove b
#? [A2]
loadsgf sgf/life_ko_corner_taken.sgf
690 genmove w
#? [C1]

# The corner ko shape on 13x13, bottom-right, colours swapped: White's best
# attack is M1 (a ko), Black lives at M1 or N1.
loadsgf sgf/life_ko_corner_13.sgf
700 genmove w
#? [M1]
loadsgf sgf/life_ko_corner_13.sgf
710 genmove b
#? [N1|M1]

# Bent four on the top edge of 19x19 (S19 R19 Q19 Q18): alive with Black to move.
loadsgf sgf/life_bent_four_19.sgf
720 final_status_list dead
#? []
loadsgf sgf/life_bent_four_19.sgf
730 final_score
#? [B\+23\.5]

# Nakade of four, colours swapped, 13x13: White stones C1 C2 in Black's pyramid
# four; Black is dead.
loadsgf sgf/life_nakade_pyramid_13.sgf
740 final_status_list dead
#? [A1 E1 A2 B2 D2 E2 B3 C3 D3]
loadsgf sgf/life_nakade_pyramid_13.sgf
750 final_score
#? [W\+72\.5]

# One real eye (A19) and a false one (E19) on 19x19: White is dead.
loadsgf sgf/life_false_eye_dead_19.sgf
760 final_status_list dead
#? [A18 B18 C18 D18 E18 B19 C19 D19\sF19 G19]
loadsgf sgf/life_false_eye_dead_19.sgf
770 final_score
#? [B\+49\.5]

# Crossed five on 7x7 (C1 B2 C2 D2 C3): the centre C2 for both.
loadsgf sgf/life_crossed_five_7x7.sgf
780 genmove b
#? [C2]
loadsgf sgf/life_crossed_five_7x7.sgf
790 genmove w
#? [C2]

# Seki with one eye each: White B2 C2 D2 B1 D1 (eye C1) and Black E2-H2 F1 H1
# (eye G1) share the liberty E1; whoever fills it is captured. Nothing is dead,
# the eyes count for their owners, E1 is neutral.
loadsgf sgf/life_seki_one_eye.sgf
800 final_status_list dead
#? []
loadsgf sgf/life_seki_one_eye.sgf
810 final_score
#? [W\+13\.5]
loadsgf sgf/life_seki_one_eye.sgf
820 genmove b
#? [!E1]
loadsgf sgf/life_seki_one_eye.sgf
830 genmove w
#? [!E1]

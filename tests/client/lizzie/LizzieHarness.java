import featurecat.lizzie.Config;
import featurecat.lizzie.Lizzie;
import featurecat.lizzie.analysis.EngineManager;
import featurecat.lizzie.analysis.Leelaz;
import featurecat.lizzie.analysis.MoveData;
import featurecat.lizzie.gui.GtpConsolePane;
import featurecat.lizzie.gui.LizzieFrame;
import featurecat.lizzie.rules.Board;
import featurecat.lizzie.rules.BoardData;
import featurecat.lizzie.rules.Stone;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Lizzie 0.7.4 (Debian's liblizzie-java) without its windows: the real Config, Board, Leelaz and
 * MoveData classes from /usr/share/java/lizzie.jar drive an engine, with the three GUI objects they
 * call (the main frame, the GTP console, the engine manager) replaced by do-nothing subclasses
 * that are allocated without running their Swing constructors. Run with
 * -Djava.awt.headless=true and -Duser.home=A_TEMP_DIR: Debian's Lizzie reads and writes
 * ~/.config/leela-zero/lizzie-config.txt and ~/.local/share/leela-zero/lizzie-persist.
 *
 * <pre>
 * engine [--size N] [--komi K] [--seconds S] [--deadline S] -- ENGINE COMMAND LINE
 *     Lizzie's Leelaz starts the engine (name, version, boardsize, komi; a version reply that
 *     passes Lizzie's Leela Zero check starts lz-analyze 10), then the harness does what
 *     Lizzie's GUI does for: a click on the centre (play + lz-analyze), Up (undo + lz-analyze),
 *     ClearBoard (clear_board, komi + lz-analyze), Enter (time_settings 0 2 1, genmove; the reply
 *     is placed on Lizzie's board), space (lz-analyze), space (name: analysis off) and an engine
 *     switch (quit). Every reply goes through Lizzie's own private Leelaz.parseLine. After each
 *     analysing step Lizzie must have parsed at least 3 fresh info lines for the position it
 *     shows: every candidate an empty point with a win rate in [0,100] and a pv starting at it,
 *     visits growing. Exit 0 and "RESULT PASS" when all holds; exit 1 and "RESULT FAIL" with the
 *     reason otherwise.
 * info [--size N] [--min-lines N]
 *     Reads the engine's stdout on stdin; each line starting with "info" is parsed exactly as
 *     Leelaz.parseLine does (Leelaz.parseInfo -> MoveData.fromInfo -> tryToSetBestMoves). Exit 1
 *     when a line throws (in Lizzie that ends the thread reading the engine, silently), lacks a
 *     coordinate, pv or sane win rate, holds a non-ASCII character, or fewer than N lines came.
 * </pre>
 *
 * Depends on Lizzie's public API, the private Leelaz fields cmdNumber, currentCmdNum and process
 * (read by reflection), and sun.misc.Unsafe (JDK 17 allows it without flags).
 */
public class LizzieHarness {

  // ---- GUI stand-ins ---------------------------------------------------------------------

  /** The main window: every method the engine and board code call is a no-op. */
  public static class StubFrame extends LizzieFrame {
    public StubFrame() { // never runs: allocated with Unsafe
      super();
    }

    @Override public void refresh() {}
    @Override public void refresh(int type) {}
    @Override public void refreshBackground() {}
    @Override public void updateTitle() {}
    @Override public void resetTitle() {}
    @Override public void updateBasicInfo() {}
    @Override public void updateBasicInfo(String a, String b) {}
    @Override public void setForceRefresh(boolean force) {}
    @Override public void toggleGtpConsole() {}
    @Override public void clear() {}
    @Override public void clearBeforeMove() {}
    @Override public void setPlayers(String w, String b) {}
    @Override public void drawEstimateRectKata(ArrayList<Double> estimate) {}
  }

  /** The GTP console: records every command Lizzie sends and the lines it shows. */
  public static class StubConsole extends GtpConsolePane {
    public StubConsole() { // never runs: allocated with Unsafe
      super(null);
    }

    @Override public void addCommand(String command, int number) {
      synchronized (sent) {
        sent.add(new Sent(number, command));
      }
      note("> " + number + " " + command);
    }

    @Override public void addLine(String line) {
      String l = line.replace("\n", "");
      synchronized (shown) {
        shown.add(l);
      }
      if (!l.isEmpty()) note("< " + (l.length() > 120 ? l.substring(0, 120) + " ..." : l));
    }

    @Override public boolean isVisible() {
      return true;
    }
  }

  public static class StubEngineManager extends EngineManager {
    public StubEngineManager() throws Exception { // never runs: allocated with Unsafe
      super(null);
    }

    @Override public void updateEngineIcon() {}
  }

  /** Lizzie's Leelaz, counting the info lines its parseLine accepts as fresh. */
  public static class CountingLeelaz extends Leelaz {
    public CountingLeelaz(String command) throws Exception {
      super(command);
    }

    /** Leelaz.parseLine calls this only while the analysis is up to date. */
    @Override public List<MoveData> parseInfo(String line) {
      List<MoveData> moves = super.parseInfo(line);
      int id;
      try {
        id = intField(this, "currentCmdNum");
      } catch (Exception e) {
        id = -1;
      }
      synchronized (infos) {
        infos.add(new Info(id, new ArrayList<>(moves)));
      }
      return moves;
    }
  }

  record Sent(int id, String command) {}

  record Info(int forCommand, List<MoveData> moves) {}

  // ---- plumbing ---------------------------------------------------------------------------

  static final long T0 = System.nanoTime();
  static boolean verbose = false;
  static final List<Sent> sent = new ArrayList<>();
  static final List<String> shown = new ArrayList<>();
  static final List<Info> infos = new ArrayList<>();
  static final List<Throwable> uncaught = new ArrayList<>();
  static volatile Leelaz engine;

  static double now() {
    return (System.nanoTime() - T0) / 1e9;
  }

  static synchronized void note(String s) {
    if (verbose) System.out.printf("%7.3f %s%n", now(), s);
  }

  @SuppressWarnings("unchecked")
  static <T> T allocate(Class<T> c) throws Exception {
    Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
    f.setAccessible(true);
    Object unsafe = f.get(null);
    return (T) unsafe.getClass().getMethod("allocateInstance", Class.class).invoke(unsafe, c);
  }

  static Object field(Object o, String name) throws Exception {
    Field f = Leelaz.class.getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }

  static int intField(Object o, String name) throws Exception {
    return (Integer) field(o, name);
  }

  static Process process(Leelaz lz) {
    try {
      return (Process) field(lz, "process");
    } catch (Exception e) {
      return null;
    }
  }

  /** Lizzie's statics, as Lizzie.main sets them, minus the windows. */
  static void setUp(int size) throws Exception {
    Thread.setDefaultUncaughtExceptionHandler(
        (t, e) -> {
          synchronized (uncaught) {
            uncaught.add(e);
          }
          System.out.println("UNCAUGHT in thread " + t.getName() + ": " + e);
          e.printStackTrace(System.out);
        });
    Lizzie.config = new Config();
    // Board's static initializer reads ui.board-size the first time Board is used.
    Lizzie.config.config.getJSONObject("ui").put("board-size", size);
    Lizzie.config.uiConfig.put("board-size", size);
    Lizzie.frame = allocate(StubFrame.class);
    Lizzie.gtpConsole = allocate(StubConsole.class);
    Lizzie.engineManager = allocate(StubEngineManager.class);
  }

  static String name(int[] c) {
    return Board.convertCoordinatesToName(c[0], c[1]);
  }

  /** Why Lizzie could not take this candidate, or null when it can. */
  static String badMove(MoveData m) {
    if (m.coordinate == null) return "no coordinate";
    if (m.variation == null || m.variation.isEmpty()) return m.coordinate + ": no pv";
    if (!m.variation.get(0).equals(m.coordinate))
      return m.coordinate + ": pv starts at " + m.variation.get(0);
    if (!(m.winrate >= 0 && m.winrate <= 100)) return m.coordinate + ": winrate " + m.winrate;
    if (m.playouts < 0) return m.coordinate + ": visits " + m.playouts;
    if (m.coordinate.equalsIgnoreCase("pass")) return null;
    Optional<int[]> c = Board.asCoordinates(m.coordinate);
    if (c.isEmpty() || !Board.isValid(c.get())) return m.coordinate + ": not a point of the board";
    if (Lizzie.board != null
        && Lizzie.board.getStones()[Board.getIndex(c.get()[0], c.get()[1])] != Stone.EMPTY)
      return m.coordinate + ": occupied on Lizzie's board (stale analysis)";
    return null;
  }

  // ---- info mode --------------------------------------------------------------------------

  static int infoMode(int size, int minLines) throws Exception {
    setUp(size);
    // Leelaz.parseInfo needs Lizzie.leelaz (isKataGo) and Lizzie.board; a Leelaz that is never
    // started is enough. Board is empty: candidates are only checked for being on the board.
    Leelaz lz = new Leelaz("engine");
    Lizzie.leelaz = lz;
    Lizzie.board = lz.board;
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line;
    int lines = 0, bad = 0, lastMoves = 0;
    double lastWinrate = 0;
    int lastPlayouts = 0;
    while ((line = in.readLine()) != null) {
      for (char ch : line.toCharArray()) {
        if (ch > 127) {
          System.out.println("FAIL non-ASCII character in: " + line); // Lizzie reads bytes as chars
          bad++;
          break;
        }
      }
      if (!line.startsWith("info")) continue; // Leelaz.parseLine's test
      lines++;
      try {
        lz.board.getData().setPlayouts(0); // let tryToSetBestMoves take every line
        List<MoveData> moves = lz.parseInfo(line.substring(5)); // what parseLine does
        if (moves.isEmpty()) {
          System.out.println("FAIL no candidate in: " + line);
          bad++;
        }
        for (MoveData m : moves) {
          String why = badMove(m);
          if (why != null) {
            System.out.println("FAIL " + why + " in: " + line);
            bad++;
          }
        }
        lastMoves = moves.size();
        lastWinrate = lz.board.getData().winrate;
        lastPlayouts = lz.board.getData().getPlayouts();
        if (lines == 1 && !moves.isEmpty()) {
          MoveData m = moves.get(0);
          System.out.printf(
              "  first line, first candidate: %s visits %d winrate %.2f prior %.2f pv %s%n",
              m.coordinate, m.playouts, m.winrate, m.policy, m.variation);
        }
      } catch (Throwable e) {
        // In Lizzie this escapes Leelaz.read() and ends the thread that reads the engine.
        System.out.println("FAIL THROWS " + e + " in: " + line);
        bad++;
      }
    }
    System.out.printf(
        "  %d info lines parsed; last: %d candidates, %d visits, Lizzie's win rate %.2f%%%n",
        lines, lastMoves, lastPlayouts, lastWinrate);
    if (lines < minLines) {
      System.out.println("FAIL only " + lines + " info lines, expected at least " + minLines);
      bad++;
    }
    System.out.println(bad == 0 ? "RESULT PASS" : "RESULT FAIL");
    return bad == 0 ? 0 : 1;
  }

  // ---- engine mode ------------------------------------------------------------------------

  static class Failure extends Exception {
    Failure(String why) {
      super(why);
    }
  }

  static int sentCount() {
    synchronized (sent) {
      return sent.size();
    }
  }

  /** The id of the first command `command` Lizzie sent after the first `from` commands, or -1. */
  static int sentSince(int from, String command) {
    synchronized (sent) {
      for (int i = from; i < sent.size(); i++)
        if (sent.get(i).command().equals(command)) return sent.get(i).id();
    }
    return -1;
  }

  /** The id of the last `command` sent from sent[from] on, or -1. */
  static int newestSince(int from, String command) {
    synchronized (sent) {
      for (int i = sent.size() - 1; i >= from; i--)
        if (sent.get(i).command().equals(command)) return sent.get(i).id();
    }
    return -1;
  }

  static Sent lastSent() {
    synchronized (sent) {
      return sent.isEmpty() ? null : sent.get(sent.size() - 1);
    }
  }

  static void checkAlive(Leelaz lz, String step) throws Failure {
    synchronized (uncaught) {
      if (!uncaught.isEmpty()) throw new Failure(step + ": an exception escaped Lizzie's threads: " + uncaught);
    }
    Process p = process(lz);
    if (p != null && !p.isAlive())
      throw new Failure(
          step + ": the engine exited (code " + p.exitValue() + "); Lizzie shows 'Engine process ended"
              + " unintentionally'");
  }

  /** Waits until Lizzie has sent every command and parsed its reply. */
  static void waitAnswered(Leelaz lz, String step, double seconds) throws Exception {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    while (System.nanoTime() < end) {
      checkAlive(lz, step);
      if (intField(lz, "currentCmdNum") >= intField(lz, "cmdNumber") - 1) return;
      Thread.sleep(20);
    }
    throw new Failure(
        step + ": Lizzie read replies up to id " + intField(lz, "currentCmdNum") + " of "
            + (intField(lz, "cmdNumber") - 1) + " within " + seconds + " s");
  }

  /**
   * After a step that started at sent[from]: waits until Lizzie sent lz-analyze for the new
   * position and parsed at least 3 info lines for it, each a list of sane candidates, visits
   * growing. Prints one line and returns; throws Failure with the reason otherwise.
   */
  static void waitForAnalysis(Leelaz lz, String step, int from, double seconds) throws Exception {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    double t0 = now();
    int analyze = -1;
    Sent after = null;
    List<Info> fresh = new ArrayList<>();
    while (System.nanoTime() < end) {
      checkAlive(lz, step);
      // Lizzie restarts the analysis after each setting it sends while
      // pondering (Leelaz.komi calls ponder() again), from more than one
      // thread: follow the newest lz-analyze, and wait while a setting
      // sent after it has not been followed by a new one yet.
      analyze = newestSince(from, "lz-analyze 10");
      after = null;
      if (analyze >= 0) {
        Sent last = lastSent();
        if (last.id() != analyze) {
          after = last;
          Thread.sleep(20);
          continue;
        }
        fresh.clear();
        synchronized (infos) {
          for (Info i : infos) if (i.forCommand() == analyze) fresh.add(i);
        }
        if (fresh.size() >= 3) break;
      }
      Thread.sleep(20);
    }
    if (analyze < 0) throw new Failure(step + ": Lizzie sent no lz-analyze within " + seconds + " s");
    if (after != null)
      throw new Failure(
          step + ": Lizzie sent '" + after.command() + "' after lz-analyze and no new lz-analyze within "
              + seconds + " s");
    if (fresh.size() < 3)
      throw new Failure(
          step + ": Lizzie parsed " + fresh.size() + " info lines for 'lz-analyze 10' (id "
              + analyze + ") within " + seconds + " s; expected 3");
    for (Info i : fresh) {
      if (i.moves().isEmpty()) throw new Failure(step + ": an info line with no candidate");
      for (MoveData m : i.moves()) {
        String why = badMove(m);
        if (why != null) throw new Failure(step + ": " + why);
      }
    }
    int first = MoveData.getPlayouts(fresh.get(0).moves());
    int last = MoveData.getPlayouts(fresh.get(fresh.size() - 1).moves());
    if (last <= first)
      throw new Failure(step + ": visits did not grow (" + first + " then " + last + ")");
    List<MoveData> shownMoves = lz.getBestMoves();
    if (shownMoves.isEmpty()) throw new Failure(step + ": Lizzie's best moves are empty");
    MoveData best = shownMoves.get(0);
    List<String> pv = best.variation.subList(0, Math.min(6, best.variation.size()));
    System.out.printf(
        "STEP %-8s OK  %.2f s: %d fresh info lines, %d candidates, %d visits, best %s %.1f%%"
            + " (%d visits) pv %s%n",
        step, now() - t0, fresh.size(), shownMoves.size(), MoveData.getPlayouts(shownMoves),
        best.coordinate, best.winrate, best.playouts, String.join(" ", pv));
  }

  /**
   * The version reply, judged as Leelaz.parseLine judges it: Lizzie sends lz-analyze only once
   * the reply passed, and any exception there ends the thread that reads the engine, silently (it
   * runs in a ScheduledExecutorService, whose future keeps the exception).
   */
  static String diagnoseStart() {
    List<String> lines;
    synchronized (shown) {
      lines = new ArrayList<>(shown);
    }
    for (String l : lines) {
      if (!l.startsWith("=2")) continue;
      String[] params = l.trim().split(" ");
      if (params.length < 2) return "version reply '" + l + "' is empty";
      try {
        int minor = Integer.parseInt(params[1].split("\\.")[1]);
        if (minor < 15)
          return "version reply '" + l + "': Lizzie reads Leela Zero minor version " + minor
              + " < 15 and stops at the modal dialog 'Lizzie requires version 0.15 or later of"
              + " Leela Zero for analysis' before it analyses (headless: HeadlessException ends"
              + " its reader). Start Kosumi with --lizzie";
        return "version reply '" + l + "' passes Lizzie's check, yet no lz-analyze followed";
      } catch (RuntimeException e) {
        return "version reply '" + l + "': " + e
            + " in Lizzie's version check ends its reader thread, silently; analysis never starts";
      }
    }
    return "no version reply among the engine's lines " + lines;
  }

  /** The commands Lizzie sends for this sequence, in order; extra lz-analyze may come between. */
  static void checkSequence(List<String> expected) throws Failure {
    List<String> got = new ArrayList<>();
    synchronized (sent) {
      for (Sent s : sent) got.add(s.command());
    }
    int i = 0;
    for (String c : got) {
      if (i < expected.size() && c.equals(expected.get(i))) i++;
      else if (!c.equals("lz-analyze 10"))
        throw new Failure("unexpected command '" + c + "' in " + got);
    }
    if (i < expected.size())
      throw new Failure("missing '" + expected.get(i) + "' in the commands sent: " + got);
    System.out.println("commands: " + String.join(", ", got));
  }

  static int engineMode(int size, double komi, double seconds, String command) throws Exception {
    setUp(size);
    Leelaz lz = new CountingLeelaz(command);
    engine = lz;
    Lizzie.leelaz = lz;
    Lizzie.board = lz.board;
    Lizzie.board.getHistory().getGameInfo().setKomi(komi);
    String k = komi == 0.0 ? "0" : String.valueOf(komi); // Leelaz.komi's text
    System.out.printf("engine: %s (%dx%d, komi %s)%n", command, size, size, k);
    try {
      // name, version, boardsize, komi; a version that passes -> togglePonder -> lz-analyze 10
      lz.startEngine();
      try {
        waitForAnalysis(lz, "start", 0, Math.min(seconds, 5));
      } catch (Failure f) {
        throw sentSince(0, "lz-analyze 10") < 0 ? new Failure("start: " + diagnoseStart()) : f;
      }

      int mid = size / 2;
      String centre = Board.convertCoordinatesToName(mid, mid);
      int from = sentCount();
      Lizzie.board.place(mid, mid); // a click: play B <centre>, then lz-analyze 10
      waitForAnalysis(lz, "play", from, seconds);

      from = sentCount();
      Lizzie.board.previousMove(); // Up: undo, then lz-analyze 10
      waitForAnalysis(lz, "undo", from, seconds);

      from = sentCount();
      Lizzie.board.clear(); // ClearBoard: clear_board, komi, then lz-analyze 10
      waitForAnalysis(lz, "clear", from, seconds);
      double komiAfterClear = Lizzie.board.getHistory().getGameInfo().getKomi();
      String k2 = komiAfterClear == 0.0 ? "0" : String.valueOf(komiAfterClear);

      // Enter (Input.keyPressed VK_ENTER): play against the engine
      int tGen = Lizzie.config.config.getJSONObject("leelaz").getInt("max-game-thinking-time-seconds");
      from = sentCount();
      double t0 = now();
      boolean black = Lizzie.board.getData().blackToPlay;
      int moveNumber = Lizzie.board.getData().moveNumber;
      lz.sendCommand("time_settings 0 " + tGen + " 1");
      Lizzie.frame.playerIsBlack = !black;
      Lizzie.frame.isPlayingAgainstLeelaz = true;
      lz.genmove(black ? "B" : "W");
      // parseLine places the move of the reply on Lizzie's board (Board.place(String))
      waitAnswered(lz, "genmove", tGen + seconds);
      synchronized (lz) {
        // parseLine holds this lock while it places the reply's move
      }
      BoardData d = Lizzie.board.getData();
      if (lz.isThinking || d.moveNumber != moveNumber + 1 || d.lastMove.isEmpty())
        throw new Failure("genmove: Lizzie did not place the engine's move on its board");
      int[] mv = d.lastMove.get();
      Stone st = Lizzie.board.getStones()[Board.getIndex(mv[0], mv[1])];
      if (st != (black ? Stone.BLACK : Stone.WHITE))
        throw new Failure("genmove: Lizzie's board holds " + st + " at " + name(mv));
      String genmoved = name(mv);
      System.out.printf(
          "STEP %-8s OK  %.2f s: genmove %s -> %s, on Lizzie's board as move %d%n",
          "genmove", now() - t0, black ? "B" : "W", genmoved, d.moveNumber);

      // space (VK_SPACE) after the game: pondering on again
      from = sentCount();
      Lizzie.frame.isPlayingAgainstLeelaz = false;
      lz.isThinking = false;
      lz.togglePonder();
      waitForAnalysis(lz, "ponder", from, seconds);

      // space again: pondering off, which Lizzie does by sending name
      t0 = now();
      lz.togglePonder();
      waitAnswered(lz, "stop", seconds);
      System.out.printf("STEP %-8s OK  %.2f s: 'name' ended the analysis%n", "stop", now() - t0);

      // an engine switch (Leelaz.normalQuit): quit, the engine must exit
      t0 = now();
      lz.normalQuit();
      Process p = process(lz);
      if (p != null && !p.waitFor((long) (seconds * 1000), TimeUnit.MILLISECONDS))
        throw new Failure("quit: the engine did not exit within " + seconds + " s");
      if (p != null && p.exitValue() != 0)
        throw new Failure("quit: the engine exited with code " + p.exitValue());
      System.out.printf("STEP %-8s OK  %.2f s: the engine exited (code 0)%n", "quit", now() - t0);

      checkSequence(
          Arrays.asList(
              "name", "version", "boardsize " + size, "komi " + k, "lz-analyze 10",
              "play B " + centre, "lz-analyze 10", "undo", "lz-analyze 10", "clear_board",
              "komi " + k2, "lz-analyze 10", "time_settings 0 " + tGen + " 1",
              "genmove " + (black ? "B" : "W"), "lz-analyze 10", "name", "quit"));
      synchronized (uncaught) {
        if (!uncaught.isEmpty()) throw new Failure("exceptions escaped Lizzie's threads");
      }
    } catch (Failure f) {
      System.out.println("FAIL " + f.getMessage());
      System.out.println("RESULT FAIL");
      return 1;
    }
    System.out.println("RESULT PASS");
    return 0;
  }

  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "";
    int size = 9, minLines = 1;
    double komi = 7.5, seconds = 10, deadline = 60;
    int i = 1;
    for (; i < args.length && !args[i].equals("--"); i++) {
      switch (args[i]) {
        case "--size" -> size = Integer.parseInt(args[++i]);
        case "--komi" -> komi = Double.parseDouble(args[++i]);
        case "--seconds" -> seconds = Double.parseDouble(args[++i]);
        case "--deadline" -> deadline = Double.parseDouble(args[++i]);
        case "--min-lines" -> minLines = Integer.parseInt(args[++i]);
        case "--verbose" -> verbose = true;
        default -> mode = "?";
      }
    }
    StringBuilder cmd = new StringBuilder();
    for (i++; i < args.length; i++) cmd.append(cmd.length() > 0 ? " " : "").append(args[i]);

    // Never hang: end the engine and the JVM when the deadline passes or the JVM is stopped.
    final double limit = deadline;
    Thread watchdog =
        new Thread(
            () -> {
              try {
                Thread.sleep((long) (limit * 1000));
              } catch (InterruptedException e) {
                return;
              }
              System.out.println("FAIL the harness ran past its deadline of " + limit + " s");
              System.out.println("RESULT FAIL");
              System.exit(1);
            });
    watchdog.setDaemon(true);
    watchdog.start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  Leelaz lz = engine;
                  Process p = lz == null ? null : process(lz);
                  if (p != null) p.destroyForcibly();
                }));

    if (mode.equals("info")) System.exit(infoMode(size, minLines));
    if (mode.equals("engine") && cmd.length() > 0)
      System.exit(engineMode(size, komi, seconds, cmd.toString()));
    System.err.println(
        "usage: LizzieHarness info [--size N] [--min-lines N] < engine output\n"
            + "       LizzieHarness engine [--size N] [--komi K] [--seconds S] [--deadline S]"
            + " [--verbose] -- ENGINE COMMAND LINE");
    System.exit(2);
  }
}

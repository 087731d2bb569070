#!/usr/bin/env node
// Drives kosumi the way Sabaki does, through Sabaki's own GTP library
// (@sabaki/gtp 3.0.0): attach, sync, genmove, undo, analysis streams and
// stopping one by sending a command. Fails on any error reply, malformed
// analysis line or reply that does not arrive in time.
//
// Usage: node sabaki_attach.js PATH_TO_KOSUMI [SGF_OUT]

'use strict'

const {Controller} = require('@sabaki/gtp')

const enginePath = process.argv[2]
const sgfOut = process.argv[3]
const REPLY_TIMEOUT_MS = 20000

if (!enginePath) {
  console.error('usage: node sabaki_attach.js PATH_TO_KOSUMI [SGF_OUT]')
  process.exit(2)
}

const VERTEX = /^([A-HJ-Z]([1-9]|1[0-9]|2[0-5])|pass)$/

function fail(message) {
  console.error(`FAIL: ${message}`)
  process.exit(1)
}

function withTimeout(promise, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no reply to ${what} within ${REPLY_TIMEOUT_MS} ms`)),
      REPLY_TIMEOUT_MS
    )
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

// Sabaki's analysis parser (src/modules/analysis.js), restated: split on
// `info`; every segment needs `move` (a vertex) and `winrate`, and ends
// with `pv` followed only by vertices.
function parseAnalysisLine(line, floats) {
  const segments = line
    .split(/\s*info\s+/)
    .slice(1)
    .map(s => s.trim())
  if (segments.length === 0) fail(`analysis line without info: ${line}`)
  return segments.map(segment => {
    const pvAt = segment.indexOf(' pv ')
    if (pvAt < 0) fail(`segment without pv: ${segment}`)
    const pv = segment.slice(pvAt + 4).trim().split(/\s+/)
    let fields = segment.slice(0, pvAt).trim().split(/\s+/)
    const tail = []
    // KataGo may append `ownership ...` after the pv of the last segment.
    const ownershipAt = pv.indexOf('ownership')
    if (ownershipAt >= 0) tail.push(...pv.splice(ownershipAt))
    if (!pv.every(v => VERTEX.test(v))) fail(`pv with a non-vertex: ${segment}`)
    const values = {}
    for (let i = 0; i + 1 < fields.length; i += 2) values[fields[i]] = fields[i + 1]
    if (!VERTEX.test(values.move || '')) fail(`bad move in: ${segment}`)
    if (values.winrate == null) fail(`no winrate in: ${segment}`)
    const winrate = Number(values.winrate)
    if (floats ? !(winrate >= 0 && winrate <= 1) : !(Number.isInteger(winrate) && winrate >= 0 && winrate <= 10000))
      fail(`bad winrate in: ${segment}`)
    if (values.visits != null && !Number.isInteger(Number(values.visits)))
      fail(`bad visits in: ${segment}`)
    return {move: values.move, winrate, pv}
  })
}

async function main() {
  const controller = new Controller(enginePath, ['--seed', '5'])
  let stderrLines = 0
  controller.on('stderr', () => stderrLines++)
  controller.start()

  const send = async (name, args = [], subscriber) => {
    const response = await withTimeout(
      controller.sendCommand({name, args}, subscriber),
      `${name} ${args.join(' ')}`
    )
    if (response.error) fail(`${name} ${args.join(' ')} -> ? ${response.content}`)
    return response
  }

  // Attach: four commands written at once, answers read in order.
  const [name, version, protocol, list] = await Promise.all([
    send('name'),
    send('version'),
    send('protocol_version'),
    send('list_commands')
  ])
  if (name.content !== 'Kosumi') fail(`name: ${name.content}`)
  if (!/^\d+\.\d+\.\d+/.test(version.content)) fail(`version: ${version.content}`)
  if (protocol.content !== '2') fail(`protocol_version: ${protocol.content}`)
  const commands = list.content.split('\n').map(s => s.trim())
  for (const needed of ['boardsize', 'clear_board', 'komi', 'play', 'genmove', 'undo', 'quit', 'lz-analyze', 'lz-genmove_analyze']) {
    if (!commands.includes(needed)) fail(`list_commands lacks ${needed}`)
  }

  // Sync: komi as a JavaScript number, then the board, then the moves.
  await send('komi', [7])
  await send('boardsize', [9])
  await send('clear_board')
  for (const [color, vertex] of [['B', 'E5'], ['W', 'C3'], ['B', 'G7'], ['W', 'C7']]) {
    await send('play', [color, vertex])
  }

  const move = await send('genmove', ['B'])
  if (!/^([A-HJ-T][1-9]|PASS|resign)$/.test(move.content)) fail(`genmove: ${move.content}`)
  await send('undo')

  // genmove_analyze: info lines, then `play VERTEX`.
  let infoLines = 0
  let played = null
  const analyzed = await send('lz-genmove_analyze', ['B', 50], ({line}) => {
    if (line.startsWith('info')) {
      parseAnalysisLine(line, false)
      infoLines++
    } else if (line.startsWith('play ')) {
      played = line.slice(5).trim()
    }
  })
  if (analyzed.content.split('\n').some(l => l.trim() !== '' && !/^(info |play )/.test(l.trim())))
    fail(`lz-genmove_analyze reply: ${analyzed.content}`)
  if (!played || !/^([A-HJ-T][1-9]|pass|PASS|resign)$/i.test(played)) fail(`lz-genmove_analyze played ${played}`)
  if (infoLines === 0) fail('lz-genmove_analyze sent no info line')
  await send('undo')

  // lz-analyze until a line arrives, then stop it with protocol_version.
  let streamed = 0
  let stopSent = null
  const gotInfo = new Promise(resolve => {
    var analysis = send('lz-analyze', ['B', 50], ({line}) => {
      if (line.startsWith('info')) {
        parseAnalysisLine(line, false)
        streamed++
        resolve({stream: analysis})
      }
    })
    analysis.catch(err => fail(err.message))
  })
  const {stream: analysis} = await withTimeout(gotInfo, 'the first lz-analyze info line')
  stopSent = send('protocol_version')
  const [stopped, afterStop] = await Promise.all([analysis, stopSent])
  if (stopped.error) fail('lz-analyze ended with an error')
  if (afterStop.content !== '2') fail(`protocol_version after analysis: ${afterStop.content}`)
  if (streamed === 0) fail('lz-analyze streamed nothing')

  // kata-analyze with ownership, stopped the same way.
  let kataLines = 0
  const kata = new Promise(resolve => {
    var stream = send('kata-analyze', ['W', 'interval', 20, 'ownership', 'true'], ({line}) => {
      if (line.startsWith('info')) {
        parseAnalysisLine(line, true)
        if (!/ ownership( -?\d+(\.\d+)?){81}$/.test(line)) fail(`kata ownership: ${line.slice(-80)}`)
        kataLines++
        resolve({stream})
      }
    })
  })
  const {stream: kataStream} = await withTimeout(kata, 'the first kata-analyze info line')
  await Promise.all([kataStream, send('name')])
  if (kataLines === 0) fail('kata-analyze streamed nothing')

  if (sgfOut) {
    await send('printsgf', [sgfOut])
  }
  const board = await send('showboard')
  if (!board.content.includes('A B C D E F G H J')) fail(`showboard: ${board.content}`)

  // Detach: quit, and the process must exit by itself.
  const exited = new Promise(resolve => controller.once('stopped', resolve))
  await send('quit')
  await withTimeout(exited, 'process exit after quit')
  console.log(
    `ok: attach, sync, genmove ${move.content}, lz-genmove_analyze ${played} (${infoLines} info lines), ` +
      `lz-analyze ${streamed} lines, kata-analyze ${kataLines} lines, ${stderrLines} stderr lines`
  )
}

main().catch(err => fail(err.stack || String(err)))

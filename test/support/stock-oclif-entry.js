#!/usr/bin/env node
// The CLI as oclif's stock entry runs it: `execute()` from @oclif/core's index, oclif's own plugin
// discovery, none of bin/run.js's start-up work (narrow imports, prebuilt core plugins, the plain
// platform). test/e2e/entry-parity.test.ts compares what bin/run.js prints with what this prints.
import {execute} from '@oclif/core'

await execute({dir: new URL('../../bin/run.js', import.meta.url).href})

#!/usr/bin/env node
// The stock oclif entry point, as `oclif generate` writes it.
import {execute} from '@oclif/core'

await execute({dir: import.meta.url})

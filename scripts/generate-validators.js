#!/usr/bin/env node
// Placeholder replaced by the config work: generates ajv standalone validators into dist/.

import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

import {mcpChecks} from '../doctor-checks.js'

export default defineDoctorHook(async ({host}) => doctorReport(await mcpChecks(host)))

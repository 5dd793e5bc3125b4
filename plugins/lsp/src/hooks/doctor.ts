import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

import {lspChecks} from '../doctor-checks.js'

export default defineDoctorHook(async ({host}) => doctorReport(await lspChecks(host)))

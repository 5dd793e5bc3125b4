import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

import {agentsChecks} from '../doctor-checks.js'

export default defineDoctorHook(async ({host}) => doctorReport(await agentsChecks(host)))

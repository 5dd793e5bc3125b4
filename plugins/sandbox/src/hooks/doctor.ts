import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

import {sandboxChecks} from '../doctor-checks.js'

export default defineDoctorHook(async ({host}) => doctorReport(await sandboxChecks(host)))

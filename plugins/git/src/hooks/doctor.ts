import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

import {gitChecks} from '../doctor-checks.js'

export default defineDoctorHook(async ({host}) => doctorReport(await gitChecks(host)))
